import {
  cannotStart,
  combatantOf,
  compareInstants,
  type DecideContext,
  type Decision,
  isRejection,
  notRunning,
  type Rejection,
  reject,
  schedule,
  unknownCombatant,
  unschedule,
} from '@roundkeeper/engine';
import { taraCatalog } from './catalog.js';
import type { RollRequest, TaraCommand } from './commands.js';
import type { TaraEvent, TaraFact } from './events.js';
import { reachEntry, rollInitiative, startRound, turnEntry } from './initiative.js';
import { instantAt, tieKey } from './marks.js';
import { perform } from './perform.js';
import { actsSimultaneouslyNow, check } from './rules.js';
import type { StoredInstant, TaraState, TaraTypes } from './types.js';

type Ctx = DecideContext<TaraTypes>;

function checkRequest(state: TaraState, req: RollRequest): Rejection | undefined {
  for (const given of [req.delay, req.rolls]) {
    if (given === undefined) continue;
    for (const id of Object.keys(given)) if (!combatantOf(state, id)) return unknownCombatant(state, id);
  }
  return undefined;
}

/** 000 Very Simply: "choose to forego any Initiative Roll": table dice would be silently ignored. */
function noRollToGive(state: TaraState, req: RollRequest, round: number): Rejection | undefined {
  if (state.options.roundMode !== 'very-simply' || Object.keys(req.rolls ?? {}).length === 0)
    return undefined;
  return reject(
    'initiative/no-roll',
    `Round ${round} is played Very Simply: nobody rolls Initiative, the score is the Initiative characteristic (rounded up) plus modifiers. Leave the rolls empty, or change the Round mode option to Full or Simple first.`,
  );
}

/** `next`: the clock moves to the next thing on the agenda; when the Round has nothing left, it ends. */
function next(ctx: Ctx, req: RollRequest): Decision<TaraEvent> {
  const { state } = ctx;
  const stopped = notRunning(state);
  if (stopped) return stopped;
  const bad = checkRequest(state, req);
  if (bad) return bad;
  if (state.rs.phase === 'between')
    return noRollToGive(state, req, state.round + 1) ?? startRound(ctx, state.round + 1, req);
  // 000 Delaying: "Your character may always delay their actions once per Round".
  const delayedAgain = req.delay
    ? Object.keys(req.delay)
        .map((id) => combatantOf(state, id))
        .find((c) => c?.cs.delaying)
    : undefined;
  if (delayedAgain) {
    const c = delayedAgain;
    return reject(
      'delay/not-now',
      `${c.name} already delayed this Round (announced with the roll, half rounded ${c.cs.delaying}: Mark ${c.cs.initiativeScore ?? 0}); a character delays at most once per Round. Announce the next delay with the next Round's roll.`,
    );
  }
  if (req.delay || req.rolls) {
    return reject(
      'delay/not-now',
      `Delays and table rolls are given with the Initiative Roll; round ${state.round} is still running (press Next until it ends, then give them with the roll).`,
    );
  }
  const events: TaraFact[] = [];
  if (state.current) events.push({ type: 'turn/ended', combatant: state.current });
  const entry = state.agenda.find((e) => e.at.round === state.round);
  if (entry) {
    for (const e of reachEntry(state, entry)) events.push(e);
    return events;
  }
  // 000 Carry Over: "This IS NOT the case with attacks and movement. If you run out of Initiative, you can't finish".
  // A character still Channeling has used ALL of the Round's Initiative on it: nothing is forfeited.
  for (const id of state.roster) {
    const c = combatantOf(state, id);
    if (c?.active && c.cs.marksLeft > 0 && c.cs.channeling !== 'channeling')
      events.push({ type: 'tara/forfeited', combatant: id, marks: c.cs.marksLeft });
  }
  events.push({ type: 'round/ended', round: state.round }, { type: 'tara/round-over', round: state.round });
  return events;
}

/** Tara-Corax's commands: start, next, an action, a spell that fizzles. */
export function decide(ctx: Ctx, command: TaraCommand): Decision<TaraEvent> {
  const { state } = ctx;
  switch (command.type) {
    case 'start': {
      const refused = cannotStart(state);
      if (refused) return refused;
      const bad = checkRequest(state, command) ?? noRollToGive(state, command, 1);
      if (bad) return bad;
      const events: TaraFact[] = [{ type: 'encounter/started' }, ...startRound(ctx, 1, command)];
      return events;
    }
    case 'next':
      return next(ctx, command);
    case 'act': {
      const id = command.actor;
      if (!combatantOf(state, id)) return unknownCombatant(state, id);
      const catalog = taraCatalog(state);
      const action = catalog.find((a) => a.id === command.action);
      if (!action) {
        return reject(
          'action/unknown',
          `There is no action "${command.action}" here; pick one of ${catalog.map((a) => a.name).join(', ')}.`,
        );
      }
      if (command.target !== undefined && !combatantOf(state, command.target))
        return unknownCombatant(state, command.target);
      const plan = check(state, id, action, command);
      if (isRejection(plan)) return { ...plan, details: { actor: id, action: action.id } };
      return perform(ctx, plan, command);
    }
    case 'fizzle': {
      const id = command.actor;
      const c = combatantOf(state, id);
      if (!c) return unknownCombatant(state, id);
      const casting = c.cs.casting;
      if (!casting) return reject('cast/not-casting', `${c.name} is not casting a spell that could fizzle.`);
      const entry = state.agenda.find((e) => e.id === casting.entry);
      const events: TaraFact[] = [
        ...(entry ? [unschedule(entry.id, 'fizzled')] : []),
        { type: 'tara/spell-fizzled', combatant: id, spell: casting.spell },
      ];
      return events;
    }
    default: {
      // The engine validates a command's type first; this is the last guard.
      const other: { type: string } = command;
      return reject('command/unknown', `"${other.type}" is not a Tara-Corax command.`);
    }
  }
}

/** What follows from core events: a defeated caster's spell fizzles; a late arrival rolls Initiative. */
export function react(ctx: Ctx, event: TaraFact): TaraFact[] {
  const { state } = ctx;
  if (event.type === 'combatant/defeated') {
    const c = combatantOf(state, event.combatant);
    if (!c) return [];
    // A turn at the instant of a simultaneous action stays: the defeated character still takes it.
    const simultaneousTurn = (e: { kind: string; at: StoredInstant }) =>
      e.kind === 'turn' &&
      actsSimultaneouslyNow(state, c.id) &&
      !!state.now &&
      compareInstants(e.at, state.now) === 0;
    const out: TaraFact[] = state.agenda
      .filter((e) => e.combatant === c.id && !simultaneousTurn(e))
      .map((e) => unschedule(e.id, 'defeated'));
    if (c.cs.casting) out.push({ type: 'tara/spell-fizzled', combatant: c.id, spell: c.cs.casting.spell });
    if (c.cs.carrying)
      out.push({
        type: 'tara/carry-dropped',
        combatant: c.id,
        action: c.cs.carrying.action,
        name: c.cs.carrying.name,
      });
    return out;
  }
  if (event.type === 'combatant/added' && state.status === 'running' && state.rs.phase === 'round') {
    const c = combatantOf(state, event.combatant.id);
    if (!c) return [];
    const { events, score } = rollInitiative(ctx, c, state.round, state.rs.roundMode, {});
    const entry = turnEntry(ctx, c, state.round, score, `${c.name} acts (Mark ${score})`);
    const ahead = score >= 1 && (!state.now || compareInstants(entry.at, state.now) > 0);
    if (!ahead) return [...events, { type: 'tara/joins-next-round', combatant: c.id }];
    // The round's order line names every turn of the round: the newcomer's too, at its Mark.
    const order = withLateArrival(state, c.id, entry.at);
    return [...events, { type: 'tara/round-order', round: state.round, order }, schedule(entry)];
  }
  return [];
}

/**
 * This round's order with a late arrival placed at its first turn's instant: with the group whose turn
 * falls at the same instant (a full tie: simultaneous), or before the first group whose turn comes later.
 */
function withLateArrival(state: TaraState, id: string, at: StoredInstant): string[][] {
  const instantOf = (other: string): StoredInstant | null => {
    const c = combatantOf(state, other);
    const score = c?.cs.initiativeScore;
    return c && typeof score === 'number'
      ? instantAt(state.round, Math.max(score, 1), tieKey(c.stats), 'turn')
      : null;
  };
  const order = state.rs.order.map((g) => g.filter((x) => x !== id)).filter((g) => g.length > 0);
  for (const [i, group] of order.entries()) {
    const there = instantOf(group[0]!);
    if (!there) continue;
    const cmp = compareInstants(there, at);
    if (cmp === 0) return order.map((g, j) => (j === i ? [...g, id] : g));
    if (cmp > 0) return [...order.slice(0, i), [id], ...order.slice(i)];
  }
  return [...order, [id]];
}
