import {
  type AgendaEntry,
  type Command,
  cannotStart,
  combatantOf,
  compareInstants,
  type DecideContext,
  type Decision,
  type EngineEvent,
  isRejection,
  type JsonObject,
  nextEntry,
  notRunning,
  type Rejection,
  reach,
  reject,
  schedule,
  unknownCombatant,
  unschedule,
} from '@roundkeeper/engine';
import { findAction, isReaction, weaponSpeedOf } from './catalog.js';
import {
  type C,
  currentTempo,
  type ExertUse,
  exertLegality,
  maxExertion,
  ownTurn,
  placePlan,
  planLegality,
  reactionLegality,
  strikeLegality,
  weaponOf,
} from './rules.js';
import type { PlanItem, State, TempoTypes } from './types.js';

type Ctx = DecideContext<TempoTypes>;

/** A player commands only their own combatants; the GM commands everyone. */
function commandable(ctx: Ctx, id: string): C | Rejection {
  const c = combatantOf(ctx.state, id);
  if (!c) return unknownCombatant(ctx.state, id);
  if (ctx.by.role === 'table') return reject('auth/table', 'The table view cannot send commands.');
  if (ctx.by.role === 'player' && !ctx.by.combatants.includes(c.id)) {
    return reject('auth/not-yours', `Only ${c.name}'s player or the GM can command ${c.name}.`);
  }
  return c;
}

function gmOnly(ctx: Ctx, what: string): Rejection | undefined {
  return ctx.by.role === 'gm' ? undefined : reject('auth/gm-only', `Only the GM can ${what}.`);
}

function planEntry(state: State, c: C, item: PlanItem, at: AgendaEntry['at']): AgendaEntry {
  const name = findAction(state, c, item.action)?.name ?? item.action;
  // Secret: the engine's view drops it for everyone but the GM until the turn is reached.
  return {
    id: item.id,
    at,
    kind: 'turn',
    combatant: c.id,
    label: `${c.name}: ${name}`,
    secret: true,
    data: { plan: item.id },
  };
}

/** Starts round `round` with its planning phase. */
function newRound(round: number): EngineEvent[] {
  return [
    { type: 'round/started', round },
    { type: 'clock/advanced', to: { round, at: [] } },
    { type: 'tempo/planning', round },
  ];
}

/** The GM's count moves on: the next planned action in clock order, or the end of the round. */
function advance(state: State): EngineEvent[] {
  const events: EngineEvent[] = [];
  if (state.current) events.push({ type: 'turn/ended', combatant: state.current });
  const entry = nextEntry(state, (e) => e.kind === 'turn' && e.at.round === state.round);
  const c = entry?.combatant ? state.combatants[entry.combatant] : undefined;
  const item = c?.cs.plan.find((p) => p.id === entry?.id);
  if (entry && c && item) {
    const turnNumber = state.rs.turnNumber + 1;
    // 003 "Normal Move": on every turn — but "you do not receive your normal move on an Extra/Free turn".
    const moveLeft = item.slot === 'extra' || item.slot === 'free' ? 0 : c.stats.speed;
    events.push(...reach(entry), {
      type: 'tempo/action-taken',
      combatant: c.id,
      plan: item.id,
      action: item.action,
      slot: item.slot,
      tempo: item.tempo,
      turn: turnNumber,
      moveLeft,
      ...(item.spell ? { spell: item.spell } : {}),
    });
    return events;
  }
  if (entry) return [...events, unschedule(entry.id, 'orphaned')];
  events.push({ type: 'round/ended', round: state.round }, ...newRound(state.round + 1));
  return events;
}

function decidePlan(ctx: Ctx, command: Command): Decision {
  const { state } = ctx;
  const c = commandable(ctx, command.actor as string);
  if (isRejection(c)) return c;
  const def = findAction(state, c, command.action as string);
  if (!def) {
    return reject('action/unknown', `"${String(command.action)}" is not an action ${c.name} has.`, {
      action: String(command.action),
    });
  }
  const replaceId = command.replace as string | undefined;
  const replace = replaceId ? c.cs.plan.find((p) => p.id === replaceId) : undefined;
  if (replaceId && !replace) {
    return reject('plan/unknown', `${c.name} has no planned action "${replaceId}" this round.`);
  }
  const legal = planLegality(state, c, def, {
    slot: command.slot as PlanItem['slot'] | undefined,
    replace,
    tempo: command.tempo as number | undefined,
    strike: command.strike as boolean | undefined,
    spell: command.spell as string | undefined,
  });
  if (isRejection(legal)) return legal;
  const item: PlanItem = {
    id: replace?.id ?? ctx.newId('plan'),
    slot: legal.slot,
    action: def.id,
    tempo: legal.tempo,
    taken: false,
  };
  // A changed Magic plan that names no spell keeps the spell it replaces.
  const spell =
    (command.spell as string | undefined) ?? (replace?.action === def.id ? replace.spell : undefined);
  if (spell) item.spell = spell;
  if (command.strike) item.strike = true;
  return [
    {
      type: 'tempo/planned',
      combatant: c.id,
      plan: item as unknown as JsonObject,
      ...(replace ? { replaces: replace.id } : {}),
    },
    schedule(planEntry(state, c, item, legal.at)),
  ];
}

/**
 * 003: "the GM counts from 0 to 9, and players can inform the GM they are taking an action at that
 * Tempo" — the text orders only PCs before NPCs, so within a side the table chooses. The character's
 * action at the tempo the count comes to next moves ahead of the others of their side there (they
 * follow it in their previous order).
 */
function decideActNext(ctx: Ctx, command: Command): Decision {
  const { state } = ctx;
  const c = commandable(ctx, command.actor as string);
  if (isRejection(c)) return c;
  const stopped = notRunning(state);
  if (stopped) return stopped;
  if (c.cs.dead || !c.active)
    return reject('combatant/defeated', `${c.name} is out of the fight and takes no more turns.`);
  const turns = state.agenda.filter((e) => e.kind === 'turn' && e.at.round === state.round);
  const next = turns[0];
  if (!next) {
    return reject(
      'order/nothing-planned',
      `No planned action is left this round; ${c.name} acts again after the next planning phase.`,
    );
  }
  const [tempo, side] = next.at.at as [number, number];
  const part = side === 0 ? 'PCs' : 'NPCs';
  const own = turns.find((e) => e.combatant === c.id && e.at.at[0] === tempo && e.at.at[1] === side);
  if (!own) {
    const why =
      (c.side === 'pc' ? 0 : 1) !== side
        ? `the next turns are the ${part}' at tempo ${tempo}, and ${c.name} is not one of the ${part}`
        : `${c.name} has no action still to take at tempo ${tempo}, where the count goes next`;
    return reject(
      'order/not-next',
      `${c.name} cannot take the next turn: ${why}. Change a planned action to one at tempo ${tempo} (or Exert to move one there), or wait for the count to reach ${c.name}'s action.`,
    );
  }
  const ahead = turns.filter(
    (e) => e.at.at[0] === tempo && e.at.at[1] === side && compareInstants(e.at, own.at) < 0,
  );
  return [
    { type: 'tempo/acts-next', combatant: c.id, tempo },
    // The others keep their order among themselves, right after this character's action.
    ...ahead.map((e) =>
      schedule({ ...e, at: { round: e.at.round, at: [...own.at.at, 1, ...e.at.at.slice(2)] } }),
    ),
  ];
}

function decideAct(ctx: Ctx, command: Command): Decision {
  const { state } = ctx;
  const c = commandable(ctx, command.actor as string);
  if (isRejection(c)) return c;
  const refused = ownTurn(state, c);
  if (refused) return refused;
  const turn = c.cs.turn!;
  const def = findAction(state, c, turn.action);
  if (!def) return reject('action/unknown', `The action "${turn.action}" is no longer defined.`);
  if (turn.acted) {
    return reject(
      'act/done',
      `${c.name} has already performed ${def.name} this turn; move, react or end the turn.`,
    );
  }
  const ev: EngineEvent = { type: 'tempo/acted', combatant: c.id, action: def.id };
  const after: EngineEvent[] = [];
  const target = command.target as string | undefined;
  if (target !== undefined) {
    if (!combatantOf(state, target)) return unknownCombatant(state, target);
    ev.target = target;
  }
  if (weaponSpeedOf(state, def)) {
    const weapon = command.weapon as string | undefined;
    if (!weapon) return reject('strike/no-weapon', `${def.name} is a Strike: name the held weapon it uses.`);
    const bad = strikeLegality(state, c, def, weapon);
    if (bad) return bad;
    ev.weapon = weaponOf(c, weapon)!.name;
  }
  const base = def.data?.as ?? def.id;
  if (base === 'guard') {
    if (!target || target === c.id)
      return reject('guard/target', 'Guard protects someone else: name the adjacent character.');
    ev.guarding = target;
  }
  if (base === 'help') {
    // 003 Help: "choose an Ally in Range 1" (range is the GM's; the side is checked here).
    const ally = target ? state.combatants[target] : undefined;
    if (!ally || ally.id === c.id || ally.side !== c.side) {
      const why = !ally
        ? 'no ally was named (target)'
        : ally.id === c.id
          ? `${c.name} cannot Help themselves`
          : `${ally.name} is not ${c.name}'s ally`;
      return reject('help/ally', `Help is for an Ally in Range 1: ${why}; name an ally on ${c.name}'s side.`);
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
    const stow = command.stow as string | undefined;
    if (stow !== undefined) {
      const i = held.findIndex((h) => h.toLowerCase() === stow.toLowerCase());
      if (i < 0)
        return reject(
          'inventory/not-held',
          `${c.name} is not holding "${stow}" (in hand: ${held.join(', ') || 'nothing'}).`,
        );
      held = held.filter((_, j) => j !== i);
    }
    const draw = command.draw as string | undefined;
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
  const events: EngineEvent[] = [ev, ...after];
  if (command.roll) {
    const roll = ctx.roll(command.roll as string);
    events.push({
      type: 'dice/rolled',
      combatant: c.id,
      purpose: def.name,
      roll: roll as unknown as JsonObject,
    });
  }
  return events;
}

function decideMove(ctx: Ctx, command: Command): Decision {
  const c = commandable(ctx, command.actor as string);
  if (isRejection(c)) return c;
  const refused = ownTurn(ctx.state, c);
  if (refused) return refused;
  const turn = c.cs.turn!;
  const distance = command.distance as number;
  const def = findAction(ctx.state, c, turn.action);
  const moveAction = (def?.data?.as ?? def?.id) === 'move';
  // 003 "Tags": no Normal Move on an Extra or Free turn. The Move action's own movement ("Move up to
  // your Speed") is not the Normal Move: an Extra or Free Move still moves, once it is performed.
  if ((turn.slot === 'extra' || turn.slot === 'free') && turn.moveLeft === 0) {
    const kind = turn.slot === 'extra' ? 'an Extra' : 'a Free';
    return reject(
      'move/no-normal-move',
      !moveAction
        ? `${c.name} gets no Normal Move on ${kind} turn (003 "Tags"), and ${def?.name ?? 'this action'} is not a Move action, so ${c.name} does not move on this turn.`
        : !turn.acted
          ? `${c.name} gets no Normal Move on ${kind} turn (003 "Tags"); perform the Move action first ("act"), then move up to Speed ${c.stats.speed}.`
          : `${c.name} gets no Normal Move on ${kind} turn (003 "Tags"), and has used all the movement of the Move action (Speed ${c.stats.speed}).`,
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

function decideReact(ctx: Ctx, command: Command): Decision {
  const { state } = ctx;
  const c = commandable(ctx, command.actor as string);
  if (isRejection(c)) return c;
  const def = findAction(state, c, command.reaction as string);
  if (!def || !isReaction(def)) {
    return reject('reaction/unknown', `"${String(command.reaction)}" is not a reaction ${c.name} knows.`);
  }
  const trigger = command.trigger as string;
  const refused = reactionLegality(state, c, def, trigger);
  if (refused) return refused;
  const ev: EngineEvent = {
    type: 'tempo/reacted',
    combatant: c.id,
    reaction: def.id,
    trigger,
    turn: state.rs.turnNumber,
    tempo: currentTempo(state) ?? 0,
  };
  if (def.id === 'intercept') ev.target = c.cs.guarding!;
  else if (command.target) {
    if (!combatantOf(state, command.target as string))
      return unknownCombatant(state, command.target as string);
    ev.target = command.target as string;
  }
  const events: EngineEvent[] = [ev];
  if (command.roll) {
    const roll = ctx.roll(command.roll as string);
    events.push({
      type: 'dice/rolled',
      combatant: c.id,
      purpose: def.name,
      roll: roll as unknown as JsonObject,
    });
  }
  return events;
}

function decideExert(ctx: Ctx, command: Command): Decision {
  const { state } = ctx;
  const c = commandable(ctx, command.actor as string);
  if (isRejection(c)) return c;
  const use = command.use as ExertUse;
  const amount = use === 'prepared' ? ((command.amount as number | undefined) ?? 1) : 1;
  if (use === 'prepared' && amount !== 1) {
    // "the GM may say this results in 1-3 Exertion"
    const gm = gmOnly(ctx, 'set how much Exertion a preparation costs');
    if (gm) return gm;
  }
  const refused = exertLegality(state, c, use, amount);
  if (refused) return refused;
  const ev: EngineEvent = {
    type: 'tempo/exerted',
    combatant: c.id,
    use,
    amount,
    exertion: c.cs.exertion + amount,
  };
  if (command.note) ev.note = command.note as string;
  const events: EngineEvent[] = [ev];
  switch (use) {
    case 'change-tempo': {
      const planId = command.plan as string | undefined;
      const item = planId ? c.cs.plan.find((p) => p.id === planId) : undefined;
      if (!item)
        return reject('exert/plan', `Name which of ${c.name}'s planned actions changes tempo ("plan").`);
      if (item.taken) {
        return reject(
          'plan/taken',
          `${c.name} has already taken that action; only an action not yet taken can move to another tempo.`,
        );
      }
      const tempo = command.tempo as number | undefined;
      if (tempo === undefined || tempo === item.tempo) {
        return reject(
          'exert/tempo',
          `Say the new tempo (0–9) for the action; it is at tempo ${item.tempo} now.`,
        );
      }
      const at = placePlan(state, c, tempo, c.cs.plan.indexOf(item));
      if (isRejection(at)) return at;
      ev.plan = item.id;
      ev.tempo = tempo;
      events.push(schedule(planEntry(state, c, { ...item, tempo }, at)));
      break;
    }
    case 'momentum': {
      // "Exert during your turn: Gain 1d4 Momentum."
      const roll = ctx.roll('1d4');
      ev.momentum = roll.total;
      events.unshift({
        type: 'dice/rolled',
        combatant: c.id,
        purpose: 'Momentum',
        roll: roll as unknown as JsonObject,
      });
      break;
    }
    case 'clear-condition': {
      const effect = state.effects.find((e) => e.id === command.effect && e.target === c.id);
      if (!effect) {
        const on = state.effects.filter((e) => e.target === c.id).map((e) => `${e.name} (${e.id})`);
        return reject(
          'exert/effect',
          `Name a condition on ${c.name} to clear (on ${c.name}: ${on.join(', ') || 'none'}).`,
        );
      }
      ev.effect = effect.id;
      events.push({ type: 'effect/removed', effect: effect.id, name: effect.name, target: c.id });
      break;
    }
    case 'retry': {
      // "Exert when you fail a Skill roll: Retry any Skill roll." The GM judges the failure; the retry
      // is rolled here when its dice are given.
      if (command.roll) {
        const roll = ctx.roll(command.roll as string);
        events.push({
          type: 'dice/rolled',
          combatant: c.id,
          purpose: 'Skill roll (retry)',
          roll: roll as unknown as JsonObject,
        });
      }
      break;
    }
    default:
      break;
  }
  if (use !== 'retry' && command.roll) {
    return reject('exert/roll', 'Only "retry" rolls again; leave out "roll" for this Exert.');
  }
  return events;
}

/** "If a Character is forced to take more Exertion, they die." */
function decideForce(ctx: Ctx, command: Command): Decision {
  const gm = gmOnly(ctx, 'force Exertion on a character');
  if (gm) return gm;
  const c = combatantOf(ctx.state, command.actor as string);
  if (!c) return unknownCombatant(ctx.state, command.actor as string);
  if (c.cs.dead) return reject('tempo/dead', `${c.name} is already dead.`);
  const amount = command.amount as number;
  const max = maxExertion(c);
  const beyond = c.cs.exertion + amount > max;
  const events: EngineEvent[] = [
    {
      type: 'tempo/exertion-forced',
      combatant: c.id,
      amount,
      exertion: Math.min(max, c.cs.exertion + amount),
      ...(command.reason ? { reason: command.reason as string } : {}),
    },
  ];
  if (beyond) {
    events.push({ type: 'tempo/died', combatant: c.id, reason: 'forced beyond Maximum Exertion' });
    if (c.active) events.push({ type: 'combatant/defeated', combatant: c.id });
  }
  return events;
}

function decideEndScene(ctx: Ctx): Decision {
  const gm = gmOnly(ctx, 'end the scene');
  if (gm) return gm;
  const { state } = ctx;
  const damage: Record<string, number> = {};
  const events: EngineEvent[] = [];
  for (const id of state.roster) {
    const c = state.combatants[id]!;
    // "At the end of each Scene in which you Exerted yourself, take damage equal to your Exertion."
    if (c.side !== 'pc' || !c.cs.exertedThisScene || c.cs.exertion === 0 || c.cs.dead) continue;
    damage[id] = c.cs.exertion;
    if (c.hp) {
      const fromTemp = Math.min(c.hp.temp, c.cs.exertion);
      const hp = { ...c.hp, temp: c.hp.temp - fromTemp, current: c.hp.current - (c.cs.exertion - fromTemp) };
      events.push({ type: 'hp/changed', combatant: id, from: { ...c.hp }, hp });
    }
  }
  return [{ type: 'tempo/scene-ended', scene: state.rs.scene, damage }, ...events];
}

export function decide(ctx: Ctx, command: Command): Decision {
  const { state } = ctx;
  switch (command.type) {
    case 'start': {
      const gm = gmOnly(ctx, 'start the fight');
      if (gm) return gm;
      const refused = cannotStart(state);
      if (refused) return refused;
      return [{ type: 'encounter/started' }, ...newRound(1)];
    }
    case 'plan':
      return decidePlan(ctx, command);
    case 'act-next':
      return decideActNext(ctx, command);
    case 'unplan': {
      const c = commandable(ctx, command.actor as string);
      if (isRejection(c)) return c;
      const item = c.cs.plan.find((p) => p.id === command.plan);
      if (!item)
        return reject(
          'plan/unknown',
          `${c.name} has no planned action "${String(command.plan)}" this round.`,
        );
      if (item.taken)
        return reject('plan/taken', `${c.name} has already taken that action; it cannot be withdrawn.`);
      return [{ type: 'tempo/unplanned', combatant: c.id, plan: item.id }, unschedule(item.id, 'withdrawn')];
    }
    case 'next': {
      const gm = gmOnly(ctx, 'count the tempo');
      if (gm) return gm;
      const stopped = notRunning(state);
      if (stopped) return stopped;
      if (state.rs.phase === 'planning') {
        if (state.options.requireFullPlans && !command.skipPlanning) {
          const short = state.roster
            .map((id) => state.combatants[id]!)
            .filter((c) => c.side === 'pc' && c.active && !c.cs.dead)
            .filter(
              (c) => c.cs.plan.filter((p) => p.slot === 'action').length < state.options.actionsPerRound,
            );
          if (short.length > 0) {
            const who = short
              .map(
                (c) =>
                  `${c.name} (${c.cs.plan.filter((p) => p.slot === 'action').length} of ${state.options.actionsPerRound})`,
              )
              .join(', ');
            return reject(
              'planning/incomplete',
              `Not every PC has planned their actions: ${who}. Plan them, or send next with skipPlanning to count anyway.`,
            );
          }
        }
        return [{ type: 'tempo/counting', round: state.round }, ...advance(state)];
      }
      return advance(state);
    }
    case 'act':
      return decideAct(ctx, command);
    case 'move':
      return decideMove(ctx, command);
    case 'react':
      return decideReact(ctx, command);
    case 'exert':
      return decideExert(ctx, command);
    case 'force-exertion':
      return decideForce(ctx, command);
    case 'end-scene':
      return decideEndScene(ctx);
    default:
      return reject('command/unknown', `"${command.type}" is not a tempo command.`);
  }
}

/** Cascades: death at Maximum Exertion, and a defeated character's plans leave the agenda. */
export function react(ctx: Ctx, event: EngineEvent): EngineEvent[] {
  const { state } = ctx;
  if (event.type === 'hp/changed') {
    const c = state.combatants[event.combatant as string];
    const from = (event.from as { current?: number } | undefined)?.current ?? 1;
    const to = (event.hp as { current?: number } | undefined)?.current ?? 1;
    // 003 "Exertion": "Dying while at Max Exertion will kill a PC."
    if (c && c.side === 'pc' && !c.cs.dead && from > 0 && to <= 0 && c.cs.exertion >= maxExertion(c)) {
      const out: EngineEvent[] = [
        { type: 'tempo/died', combatant: c.id, reason: 'dying at Maximum Exertion' },
      ];
      if (c.active) out.push({ type: 'combatant/defeated', combatant: c.id });
      return out;
    }
  }
  if (event.type === 'combatant/defeated') {
    return state.agenda
      .filter((e) => e.combatant === event.combatant && e.kind === 'turn')
      .map((e) => unschedule(e.id, 'defeated'));
  }
  return [];
}
