import {
  combatantOf,
  isRejection,
  type Rejection,
  reject,
  rolled,
  unknownCombatant,
} from '@roundkeeper/engine';
import { findAction, isReaction, weaponOf, weaponSpeedOf } from './catalog.js';
import type { TempoCommandOf } from './commands.js';
import type { TempoEventOf } from './events.js';
import { commandable, type Fact } from './facts.js';
import { currentTempo, ownTurn, reactionLegality, strikeLegality } from './rules.js';
import type { Ctx } from './types.js';

/** Performs the action of the current turn (Strike, Guard target, Recover, Inventory swap…). */
export function decideAct(ctx: Ctx, command: TempoCommandOf<'act'>): Fact[] | Rejection {
  const { state } = ctx;
  const c = commandable(ctx, command.actor);
  if (isRejection(c)) return c;
  const turn = ownTurn(state, c);
  if (isRejection(turn)) return turn;
  const def = findAction(state, c, turn.action);
  if (!def) return reject('action/unknown', `The action "${turn.action}" is no longer defined.`);
  if (turn.acted) {
    return reject(
      'act/done',
      `${c.name} has already performed ${def.name} this turn; move, react or end the turn.`,
    );
  }
  const ev: TempoEventOf<'tempo/acted'> = { type: 'tempo/acted', combatant: c.id, action: def.id };
  const after: Fact[] = [];
  const target = command.target;
  if (target !== undefined) {
    if (!combatantOf(state, target)) return unknownCombatant(state, target);
    ev.target = target;
  }
  if (weaponSpeedOf(state, def)) {
    // Without a Weapon, the one weapon the Strike can be made with is it (a choice only when there are two).
    const usable =
      command.weapon === undefined
        ? c.stats.weapons.filter((w) => !isRejection(strikeLegality(state, c, def, w.name)))
        : [];
    const weapon = command.weapon ?? (usable.length === 1 ? usable[0]!.name : undefined);
    if (!weapon)
      return reject(
        'strike/no-weapon',
        usable.length
          ? `${def.name} is a Strike: choose the Weapon it uses (${usable.map((w) => w.name).join(' or ')}).`
          : `${def.name} is a Strike: choose the Weapon it uses, one held in hand.`,
      );
    const struck = strikeLegality(state, c, def, weapon);
    if (isRejection(struck)) return struck;
    // The log keeps the sheet's spelling of the weapon's name.
    ev.weapon = struck.name;
  }
  const base = def.data?.as ?? def.id;
  if (base === 'guard') {
    if (!target || target === c.id)
      return reject(
        'guard/target',
        'Guard protects someone else: choose the adjacent character as the Target.',
      );
    ev.guarding = target;
  }
  if (base === 'help') {
    // 003 Help: "choose an Ally in Range 1" (range is the GM's; the side is checked here).
    const ally = target ? state.combatants[target] : undefined;
    if (!ally || ally.id === c.id || ally.side !== c.side) {
      const why = !ally
        ? 'no ally was chosen as the Target'
        : ally.id === c.id
          ? `${c.name} cannot Help themselves`
          : `${ally.name} is not ${c.name}'s ally`;
      return reject(
        'help/ally',
        `Help is for an Ally in Range 1: ${why}; choose an ally on ${c.name}'s side.`,
      );
    }
  }
  if (base === 'rest') ev.rested = true;
  if (base === 'move') ev.moveLeft = turn.moveLeft + c.stats.speed;
  if (command.recover) {
    // 003 Shift: "Only if you have taken the Rest action this turn: Recover" — read as this round.
    if (base !== 'shift')
      return reject('recover/not-shift', 'Recover is one of the options of a Shift action.');
    if (!c.cs.rested) {
      return reject(
        'recover/no-rest',
        `${c.name} has not taken the Rest action this round; Recover needs Rest earlier in the round.`,
      );
    }
    const to = Math.max(0, c.cs.exertion - state.options.recoverExertion);
    after.push({ type: 'tempo/recovered', combatant: c.id, from: c.cs.exertion, to });
  }
  if (command.draw !== undefined || command.stow !== undefined) {
    if (base !== 'inventory')
      return reject('inventory/not-inventory', 'Stowing and drawing take the Inventory action.');
    let held = [...c.cs.held];
    const stow = command.stow;
    if (stow !== undefined) {
      const i = held.findIndex((h) => h.toLowerCase() === stow.toLowerCase());
      if (i < 0)
        return reject(
          'inventory/not-held',
          `${c.name} is not holding "${stow}" (in hand: ${held.join(', ') || 'nothing'}).`,
        );
      held = held.filter((_, j) => j !== i);
    }
    const draw = command.draw;
    if (draw !== undefined) {
      const w = weaponOf(c, draw);
      if (!w) return reject('inventory/unknown', `${c.name} carries no weapon "${draw}".`);
      if (held.length >= 2)
        return reject(
          'inventory/hands-full',
          `${c.name}'s hands are full (${held.join(', ')}); stow something first.`,
        );
      held.push(w.name);
    }
    ev.held = held;
  }
  const events: Fact[] = after.length ? [ev, ...after] : [ev];
  if (command.roll) events.push(rolled(c.id, def.name, ctx.roll(command.roll)));
  return events;
}

/** Normal Move (and the Move action's distance) on the current turn. */
export function decideMove(ctx: Ctx, command: TempoCommandOf<'move'>): Fact[] | Rejection {
  const c = commandable(ctx, command.actor);
  if (isRejection(c)) return c;
  const turn = ownTurn(ctx.state, c);
  if (isRejection(turn)) return turn;
  const distance = command.distance;
  const def = findAction(ctx.state, c, turn.action);
  const moveAction = (def?.data?.as ?? def?.id) === 'move';
  // 003 "Tags": no Normal Move on an Extra or Free turn. The Move action's own movement ("Move up to
  // your Speed") is not the Normal Move: an Extra or Free Move still moves, once it is performed.
  if ((turn.slot === 'extra' || turn.slot === 'free') && turn.moveLeft === 0) {
    const kind = turn.slot === 'extra' ? 'an Extra' : 'a Free';
    return reject(
      'move/no-normal-move',
      !moveAction
        ? `${c.name} gets no Normal Move on ${kind} turn (the rules on "Tags"), and ${def?.name ?? 'this action'} is not a Move action, so ${c.name} does not move on this turn.`
        : !turn.acted
          ? `${c.name} gets no Normal Move on ${kind} turn (the rules on "Tags"); take the Move action first (Take my action), then move up to Speed ${c.stats.speed}.`
          : `${c.name} gets no Normal Move on ${kind} turn (the rules on "Tags"), and has used all the movement of the Move action (Speed ${c.stats.speed}).`,
    );
  }
  if (distance > turn.moveLeft) {
    const extra = turn.slot === 'extra' || turn.slot === 'free';
    return reject(
      'move/too-far',
      `${c.name} can move ${turn.moveLeft} more this turn (${extra ? 'the Move action only' : `Speed ${c.stats.speed}`}${!extra && moveAction && turn.acted ? ', plus the Move action' : ''}), not ${distance}.`,
    );
  }
  return [
    {
      type: 'tempo/moved',
      combatant: c.id,
      distance,
      left: turn.moveLeft - distance,
      when: turn.acted ? 'after' : 'before',
    },
  ];
}

/** Uses a reaction on any character's turn. */
export function decideReact(ctx: Ctx, command: TempoCommandOf<'react'>): Fact[] | Rejection {
  const { state } = ctx;
  const c = commandable(ctx, command.actor);
  if (isRejection(c)) return c;
  const def = findAction(state, c, command.reaction);
  if (!def || !isReaction(def)) {
    return reject('reaction/unknown', `"${command.reaction}" is not a reaction ${c.name} knows.`);
  }
  const trigger = command.trigger;
  const refused = reactionLegality(state, c, def, trigger);
  if (refused) return refused;
  const ev: TempoEventOf<'tempo/reacted'> = {
    type: 'tempo/reacted',
    combatant: c.id,
    reaction: def.id,
    trigger,
    turn: state.rs.turnNumber,
    tempo: currentTempo(state) ?? 0,
  };
  if (def.id === 'intercept') {
    // reactionLegality refuses an Intercept without a Guard this round.
    if (c.cs.guarding !== null) ev.target = c.cs.guarding;
  } else if (command.target) {
    if (!combatantOf(state, command.target)) return unknownCombatant(state, command.target);
    ev.target = command.target;
  }
  const events: Fact[] = [ev];
  if (command.roll) events.push(rolled(c.id, def.name, ctx.roll(command.roll)));
  return events;
}
