import {
  cannotStart,
  combatantOf,
  compareInstants,
  movedTurn,
  notRunning,
  type Rejection,
  reject,
  schedule,
  unknownCombatant,
  unschedule,
} from '@roundkeeper/engine';
import { act } from './act.js';
import type { StaminaCommand } from './commands.js';
import type { EffectData } from './conditions.js';
import { effect, type Fact, lost } from './effects.js';
import { advance, checkInitiative, keysFrom, scheduleRound, turnEntry } from './initiative.js';
import type { Ctx } from './types.js';

/** The stamina ruleset's commands: start, next, act, abandon, and the GM's condition, adjust and set-initiative. */
export function decide(ctx: Ctx, command: StaminaCommand): Fact[] | Rejection {
  const { state } = ctx;
  switch (command.type) {
    case 'start': {
      const refused = cannotStart(state);
      if (refused) return refused;
      const ids = state.roster.filter((x) => state.combatants[x]?.active);
      const fixed = command.initiative ?? {};
      for (const x of Object.keys(fixed)) if (!combatantOf(state, x)) return unknownCombatant(state, x);
      const events: Fact[] = [{ type: 'encounter/started' }];
      for (const x of command.flatFooted ?? []) {
        const c = combatantOf(state, x);
        if (!c) return unknownCombatant(state, x);
        // "Flat Footed: The character starts combat having lost defense equal to their reflexes stat."
        events.push({
          type: 'stamina/resources',
          combatant: x,
          stamina: 0,
          defense: -lost(state, x, c.stats.reflexes),
          reason: 'flat footed',
        });
      }
      const rolled = checkInitiative(ctx, ids, fixed);
      return [...events, ...rolled, ...scheduleRound(ctx, 1, keysFrom(rolled))];
    }
    case 'next': {
      const stopped = notRunning(state);
      if (stopped) return stopped;
      const fixed = command.initiative ?? {};
      for (const x of Object.keys(fixed)) if (!combatantOf(state, x)) return unknownCombatant(state, x);
      return advance(ctx, fixed);
    }
    case 'act':
      return act(ctx, command);
    case 'abandon': {
      const c = combatantOf(state, command.actor);
      if (!c) return unknownCombatant(state, command.actor);
      const p = c.cs.performing;
      if (!p) {
        return reject(
          'turn/not-performing',
          `${c.name} is not in the middle of an action that takes several turns, so there is nothing to abandon.`,
        );
      }
      // A turn the action took when it began is free again; the turn it was declared in is not ("may not
      // declare multiple actions with a turn requirement of one or greater during their turn").
      const freesTurn = state.current === c.id && p.declaredTurn !== c.turnsStarted;
      return [
        {
          type: 'stamina/stopped',
          combatant: c.id,
          action: p.action,
          name: p.name,
          taken: p.taken,
          turns: p.turns,
          reason: 'abandoned',
          inTurn: state.current === c.id,
          freesTurn,
        },
      ];
    }
    case 'condition': {
      const target = combatantOf(state, command.target);
      if (!target) return unknownCombatant(state, command.target);
      const name = command.condition;
      const value = command.value;
      if (name === 'cover' && value !== undefined && value > 9) {
        return reject('condition/cover', 'Cover is +1 to +9 ("up to a maximum of +9").');
      }
      const duration = command.duration ?? { kind: 'indefinite' };
      if ('combatant' in duration && !combatantOf(state, duration.combatant))
        return unknownCombatant(state, duration.combatant);
      const amount = value === undefined ? '' : name === 'flanked' ? ` by ${value}` : ` +${value}`;
      const label = `${name.charAt(0).toUpperCase()}${name.slice(1)}${amount}`;
      const data: EffectData = { condition: name };
      if (value !== undefined) data.value = value;
      return [effect(ctx, target.id, label, duration, data)];
    }
    case 'adjust': {
      const c = combatantOf(state, command.combatant);
      if (!c) return unknownCombatant(state, command.combatant);
      // Without allowNegative, resources stop at zero: a GM's -999 empties them, no further.
      const floor = (delta: number, has: number) =>
        state.options.allowNegative ? delta : Math.max(delta, -has);
      return [
        {
          type: 'stamina/resources',
          combatant: c.id,
          stamina: floor(command.stamina ?? 0, Math.max(0, c.cs.stamina)),
          defense: floor(command.defense ?? 0, Math.max(0, c.cs.defense)),
          reason: command.reason ?? 'set by the GM',
        },
      ];
    }
    case 'set-initiative': {
      const c = combatantOf(state, command.actor);
      if (!c) return unknownCombatant(state, command.actor);
      const value = command.value;
      const key = [-value, -c.stats.initiative, state.roster.indexOf(c.id)];
      // This round too, when the character's turn is still ahead (see the engine's movedTurn).
      return [
        { type: 'stamina/initiative', combatant: c.id, total: value, rolled: false },
        { type: 'stamina/key', combatant: c.id, key },
        ...movedTurn(state, turnEntry(ctx, c.id, state.round, key)),
      ];
    }
    default: {
      // The engine routes only this ruleset's commands here; anything else is refused in words.
      const unknown: { type: string } = command;
      return reject('command/unknown', `"${unknown.type}" is not a stamina command.`);
    }
  }
}

/** Cascades: a turn refreshes the character's turn and reaction; a round refreshes once-per-round limits. */
export function react(ctx: Ctx, event: Fact): Fact[] {
  const { state } = ctx;
  if (event.type === 'turn/started') {
    const who = event.combatant;
    const p = state.combatants[who]?.cs.performing;
    const began: Fact = { type: 'stamina/turn-began', combatant: who };
    // The action under way takes this turn too ("how many turns a character must take in order to perform that action").
    if (!p) return [began];
    return [
      began,
      {
        type: 'stamina/continues',
        combatant: who,
        action: p.action,
        name: p.name,
        turn: p.taken + 1,
        turns: p.turns,
      },
    ];
  }
  if (event.type === 'turn/ended') {
    const who = event.combatant;
    const p = state.combatants[who]?.cs.performing;
    // It completes as the last of its turns ends.
    if (p && p.taken >= p.turns)
      return [
        {
          type: 'stamina/completed',
          combatant: who,
          action: p.action,
          name: p.name,
          turns: p.turns,
          ...(p.weapon ? { weapon: p.weapon } : {}),
        },
      ];
    return [];
  }
  if (event.type === 'round/started') return [{ type: 'stamina/round-began', round: event.round }];
  if (event.type === 'combatant/added' && state.status === 'running') {
    const c = event.combatant;
    const rolled = checkInitiative(ctx, [c.id]);
    const key = keysFrom(rolled).get(c.id) ?? [0];
    const entry = turnEntry(ctx, c.id, state.round, key);
    const ahead = !state.now || compareInstants(entry.at, state.now) > 0;
    return [...rolled, ahead ? schedule(entry) : { type: 'stamina/joins-next-round', combatant: c.id }];
  }
  if (event.type === 'combatant/defeated') {
    const out: Fact[] = state.agenda
      .filter((e) => e.combatant === event.combatant)
      .map((e) => unschedule(e.id, 'defeated'));
    const c = state.combatants[event.combatant];
    const p = c?.cs.performing;
    // A character out of the fight takes no more turns, so the action under way is never completed.
    if (c && p) {
      out.push({
        type: 'stamina/stopped',
        combatant: c.id,
        action: p.action,
        name: p.name,
        taken: p.taken,
        turns: p.turns,
        reason: 'defeated',
        inTurn: state.current === c.id,
        freesTurn: false,
      });
    }
    return out;
  }
  return [];
}
