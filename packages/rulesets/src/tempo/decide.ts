import {
  type AgendaEntry,
  cannotStart,
  combatantIn,
  notRunning,
  type Rejection,
  reach,
  reject,
  unschedule,
} from '@roundkeeper/engine';
import type { TempoCommand } from './commands.js';
import { decideEndScene, decideExert, decideForce } from './exert.js';
import { type Fact, gmOnly } from './facts.js';
import { decideActNext, decidePlan, decideUnplan } from './plan.js';
import { maxExertion } from './rules.js';
import { decideAct, decideMove, decideReact } from './turn.js';
import type { Ctx, PlanItem, State } from './types.js';

/** Starts round `round` with its planning phase. */
function newRound(round: number): Fact[] {
  return [
    { type: 'round/started', round },
    { type: 'clock/advanced', to: { round, at: [] } },
    { type: 'tempo/planning', round },
  ];
}

/** The GM's count moves on: the next planned action in clock order, or the end of the round. */
function advance(state: State): Fact[] {
  const events: Fact[] = [];
  if (state.current) events.push({ type: 'turn/ended', combatant: state.current });
  const entry = nextTurn(state);
  const c = entry?.combatant ? state.combatants[entry.combatant] : undefined;
  const item = entry && c ? planItem(c.cs.plan, entry.id) : undefined;
  if (entry && c && item) {
    const turnNumber = state.rs.turnNumber + 1;
    // 003 "Normal Move": on every turn — but "you do not receive your normal move on an Extra/Free turn".
    const moveLeft = item.slot === 'extra' || item.slot === 'free' ? 0 : c.stats.speed;
    for (const e of reach(entry)) events.push(e);
    events.push({
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
  if (entry) {
    events.push(unschedule(entry.id, 'orphaned'));
    return events;
  }
  events.push({ type: 'round/ended', round: state.round });
  for (const e of newRound(state.round + 1)) events.push(e);
  return events;
}

/** The round's next turn on the agenda (`nextEntry` of a turn this round, as a loop: asked at every count). */
function nextTurn(state: State): AgendaEntry | undefined {
  const round = state.round;
  for (const e of state.agenda) if (e.kind === 'turn' && e.at.round === round) return e;
  return undefined;
}

/** The planned action of this id (a loop: asked at every turn of the count). */
function planItem(plan: readonly PlanItem[], id: string): PlanItem | undefined {
  for (const p of plan) if (p.id === id) return p;
  return undefined;
}

/** What a `react` answers for an event that causes nothing (one list, never written to). */
const NOTHING: Fact[] = [];

/**
 * Who may send `next`. The GM counts the tempo (003: "the GM counts from 0 to 9"), so planning ends and
 * the count goes on by the GM. A turn is one character's action: once it is done, that character's player
 * ends it (003: "players can inform the GM they are taking an action at that Tempo" — the table, not only
 * the GM, moves the count along its own turns), which counts on to the next planned action as the GM's
 * Next would.
 */
function ownTurnOrGm(ctx: Ctx): Rejection | undefined {
  const { state, by } = ctx;
  if (by.role !== 'player') return gmOnly(ctx, 'count the tempo');
  const current = state.current ? state.combatants[state.current] : undefined;
  if (state.rs.phase !== 'planning' && current && by.combatants.includes(current.id)) return undefined;
  // The acting character is not named: it may be hidden from this player.
  return reject(
    'auth/gm-only',
    current && state.rs.phase !== 'planning'
      ? "Only the GM or the acting character's player can end this turn."
      : "Only the GM can count the tempo; a player ends their own character's turn.",
  );
}

/** The tempo ruleset's commands: planning, the GM's count, the turn's action, move and reactions, Exert. */
export function decide(ctx: Ctx, command: TempoCommand): Fact[] | Rejection {
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
    case 'unplan':
      return decideUnplan(ctx, command);
    case 'next': {
      const gm = ownTurnOrGm(ctx);
      if (gm) return gm;
      const stopped = notRunning(state);
      if (stopped) return stopped;
      if (state.rs.phase === 'planning') {
        if (state.options.requireFullPlans && !command.skipPlanning) {
          const short = state.roster
            .map((id) => combatantIn(state, id))
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
              `Not every PC has planned their actions: ${who}. Plan them, or tick Count anyway and press Next.`,
            );
          }
        }
        const counting: Fact[] = [{ type: 'tempo/counting', round: state.round }];
        for (const e of advance(state)) counting.push(e);
        return counting;
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
    default: {
      // The engine routes only this ruleset's commands here; anything else is refused in words.
      const unknown: { type: string } = command;
      return reject('command/unknown', `"${unknown.type}" is not a tempo command.`);
    }
  }
}

/** Cascades: death at Maximum Exertion, and a defeated character's plans leave the agenda. */
export function react(ctx: Ctx, event: Fact): Fact[] {
  const { state } = ctx;
  if (event.type === 'hp/changed') {
    const c = state.combatants[event.combatant];
    const from = event.from.current;
    const to = event.hp.current;
    // 003 "Exertion": "Dying while at Max Exertion will kill a PC."
    if (c && c.side === 'pc' && !c.cs.dead && from > 0 && to <= 0 && c.cs.exertion >= maxExertion(c)) {
      const out: Fact[] = [{ type: 'tempo/died', combatant: c.id, reason: 'dying at Maximum Exertion' }];
      if (c.active) out.push({ type: 'combatant/defeated', combatant: c.id });
      return out;
    }
  }
  if (event.type === 'combatant/defeated') {
    return state.agenda
      .filter((e) => e.combatant === event.combatant && e.kind === 'turn')
      .map((e) => unschedule(e.id, 'defeated'));
  }
  return NOTHING;
}
