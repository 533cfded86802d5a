import {
  type AgendaEntry,
  type DecideContext,
  type EngineEvent,
  type JsonObject,
  reach,
  schedule,
} from '@roundkeeper/engine';
import {
  armorModifier,
  characteristic,
  instantAt,
  MARKS_PER_ROUND,
  sameMoment,
  tieKey,
  verySimplyCharacteristic,
} from './marks.js';
import type { RoundMode, TaraState, TaraTypes } from './types.js';

type Ctx = DecideContext<TaraTypes>;

/** How a round is rolled: delays announced with the roll, dice the GM rolled at the table. */
export interface RollRequest {
  delay?: Record<string, 'up' | 'down'>;
  /** The Initiative dice as rolled at the table (the d10 plus any extra d10), by combatant. */
  rolls?: Record<string, number>;
}

/**
 * One combatant's Initiative for a round. 000: "The Player rolls 1d10 and adds that to their
 * character's Initiative Characteristic … If you roll a 10 on the 1d10 for Initiative, roll 1d10 again
 * and add that … The Maximum Initiative Score for any character is 30". Delaying: "you then go at half
 * your Initiative Roll (round up or down, your choice)". Carry Over: the Marks a spell "bled into the
 * next Round" are subtracted from the Initiative Roll.
 */
export function rollInitiative(
  ctx: Ctx,
  id: string,
  round: number,
  mode: RoundMode,
  req: RollRequest,
): EngineEvent[] {
  const c = ctx.state.combatants[id]!;
  const events: EngineEvent[] = [];
  const modifiers = armorModifier(c.stats) + c.stats.initiativeModifier;
  let raw: number;
  let dice: number | null = null;
  if (mode === 'very-simply') {
    raw = verySimplyCharacteristic(c.stats);
  } else {
    raw = characteristic(c.stats);
    const given = req.rolls?.[id];
    if (given !== undefined) dice = given;
    else {
      const expression = ctx.state.options.explodingInitiative === 'keep' ? '1d10!' : '1d10!o';
      const roll = ctx.roll(expression);
      dice = roll.total;
      events.push({
        type: 'dice/rolled',
        combatant: id,
        purpose: 'Initiative',
        roll: roll as unknown as JsonObject,
      });
    }
  }
  const initiativeRoll = Math.max(0, Math.min(MARKS_PER_ROUND, (dice ?? 0) + raw + modifiers));
  const delay = req.delay?.[id] ?? null;
  const halved =
    delay === 'up'
      ? Math.ceil(initiativeRoll / 2)
      : delay === 'down'
        ? Math.floor(initiativeRoll / 2)
        : initiativeRoll;
  // A spell longer than a Round bleeds a whole Round (30 Marks) into each Round it spans.
  const carryOver = Math.min(MARKS_PER_ROUND, c.cs.carryOver);
  const carryOverLeft = c.cs.carryOver - carryOver;
  const score = Math.max(0, halved - carryOver);
  events.push({
    type: 'tara/initiative',
    combatant: id,
    round,
    dice,
    characteristic: raw,
    modifiers,
    initiativeRoll,
    delay,
    carryOver,
    ...(carryOverLeft > 0 ? { carryOverLeft } : {}),
    score,
  });
  return events;
}

export function turnEntry(ctx: Ctx, id: string, round: number, mark: number, label: string): AgendaEntry {
  const c = ctx.state.combatants[id]!;
  return {
    id: ctx.newId('turn'),
    at: instantAt(round, mark, tieKey(c.stats), 'turn'),
    kind: 'turn',
    combatant: id,
    label,
    ...(c.hidden ? { secret: true } : {}),
    data: { mark },
  };
}

/**
 * Rolls a new round for every combatant in the fight, orders it (000 Ties), schedules each first
 * action at its Initiative Mark, and reaches the first thing that happens (which may be a spell
 * carried over from the last round).
 */
export function startRound(ctx: Ctx, round: number, req: RollRequest): EngineEvent[] {
  const { state } = ctx;
  const mode = state.options.roundMode;
  const events: EngineEvent[] = [
    { type: 'round/started', round },
    { type: 'tara/round-mode', round, mode },
  ];
  const scores = new Map<string, number>();
  for (const id of state.roster) {
    const c = state.combatants[id]!;
    if (!c.active) continue;
    const rolled = rollInitiative(ctx, id, round, mode, req);
    events.push(...rolled);
    const fact = rolled.find((e) => e.type === 'tara/initiative')!;
    scores.set(id, fact.score as number);
  }
  const entries: AgendaEntry[] = [];
  for (const [id, score] of scores) {
    if (score < 1) continue;
    entries.push(turnEntry(ctx, id, round, score, `${state.combatants[id]!.name} acts (Mark ${score})`));
  }
  entries.sort((a, b) => compareAt(a.at.at, b.at.at));
  // Labels name only the combatant itself: a label is shown to whoever sees the entry, and naming a
  // simultaneous partner here would leak a hidden one. The timeline adds the partners a viewer may see.
  const groups = groupSimultaneous(entries);
  events.push({ type: 'tara/round-order', round, order: groups.map((g) => g.map((e) => e.combatant!)) });
  for (const e of entries) events.push(schedule(e));
  const first = [...state.agenda.filter((a) => a.at.round === round), ...entries].sort((a, b) =>
    compareAt(a.at.at, b.at.at),
  )[0];
  if (first) events.push(...reachEntry(state, first, entries));
  return events;
}

function compareAt(a: readonly number[], b: readonly number[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return a.length - b.length;
}

function groupSimultaneous(entries: AgendaEntry[]): AgendaEntry[][] {
  const groups: AgendaEntry[][] = [];
  for (const e of entries) {
    const last = groups.at(-1);
    if (last && sameMoment(last[0]!.at, e.at)) last.push(e);
    else groups.push([e]);
  }
  return groups;
}

/**
 * Reaching an agenda entry: the clock moves there, and what was scheduled happens. `scheduling` holds
 * entries scheduled by the same command and not yet on the agenda (a new Round's turns).
 */
export function reachEntry(
  state: TaraState,
  entry: AgendaEntry,
  scheduling: readonly AgendaEntry[] = [],
): EngineEvent[] {
  const events: EngineEvent[] = reach(entry);
  const d = entry.data ?? {};
  const mark = MARKS_PER_ROUND - (entry.at.at[0] ?? 0);
  if (entry.kind === 'turn') {
    // 000 Ties: "If they are all the same, then simultaneous actions".
    const same = (at: { round: number; at: number[] }) =>
      at.round === entry.at.round && at.at.join() === entry.at.at.join();
    const partners = [...state.agenda, ...scheduling]
      .filter((e) => e.id !== entry.id && e.kind === 'turn' && same(e.at))
      .map((e) => e.combatant!);
    if (state.now && state.current && state.current !== entry.combatant && same(state.now))
      partners.unshift(state.current);
    if (partners.length > 0)
      events.push({
        type: 'tara/simultaneous',
        combatant: entry.combatant!,
        with: partners,
        mark,
        at: entry.at as unknown as JsonObject,
      });
  }
  if (entry.kind === 'attack') {
    events.push({
      type: 'tara/attack',
      combatant: entry.combatant!,
      action: String(d.action ?? ''),
      number: d.number as number,
      of: d.of as number,
      round: entry.at.round,
      mark,
      ...(typeof d.target === 'string' ? { target: d.target } : {}),
    });
  }
  if (entry.kind === 'complete') {
    events.push({
      type: 'tara/action-completed',
      combatant: entry.combatant!,
      action: String(d.action ?? ''),
      name: String(d.name ?? d.action ?? 'action'),
      round: entry.at.round,
      mark,
    });
  }
  if (entry.kind === 'resolve') {
    const c = state.combatants[entry.combatant!];
    events.push({
      type: 'tara/spell-resolved',
      combatant: entry.combatant!,
      spell: String(d.spell ?? c?.cs.casting?.spell ?? 'spell'),
      round: entry.at.round,
      mark,
    });
  }
  return events;
}
