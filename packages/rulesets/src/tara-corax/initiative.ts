import {
  type AgendaEntry,
  type Combatant,
  combatantOf,
  compareTuples,
  type DecideContext,
  reach,
  rolled,
  scheduleAll,
} from '@roundkeeper/engine';
import type { RollRequest } from './commands.js';
import type { TaraEventOf, TaraFact } from './events.js';
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
type TaraCombatantOf = Combatant<TaraTypes>;

/**
 * One combatant's Initiative for a round. 000: "The Player rolls 1d10 and adds that to their
 * character's Initiative Characteristic … If you roll a 10 on the 1d10 for Initiative, roll 1d10 again
 * and add that … The Maximum Initiative Score for any character is 30". Delaying: "you then go at half
 * your Initiative Roll (round up or down, your choice)". Carry Over: the Marks a spell "bled into the
 * next Round" are subtracted from the Initiative Roll.
 */
export function rollInitiative(
  ctx: Ctx,
  c: TaraCombatantOf,
  round: number,
  mode: RoundMode,
  req: RollRequest,
): { events: TaraFact[]; score: number } {
  const id = c.id;
  const events: TaraFact[] = [];
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
      events.push(rolled(id, 'Initiative', roll));
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
  const fact: TaraEventOf<'tara/initiative'> = {
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
  };
  events.push(fact);
  return { events, score };
}

export function turnEntry(
  ctx: Ctx,
  c: TaraCombatantOf,
  round: number,
  mark: number,
  label: string,
): AgendaEntry {
  return {
    id: ctx.newId('turn'),
    at: instantAt(round, mark, tieKey(c.stats), 'turn'),
    kind: 'turn',
    combatant: c.id,
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
export function startRound(ctx: Ctx, round: number, req: RollRequest): TaraFact[] {
  const { state } = ctx;
  const mode = state.options.roundMode;
  const events: TaraFact[] = [
    { type: 'round/started', round },
    { type: 'tara/round-mode', round, mode },
  ];
  const scores: Array<{ c: TaraCombatantOf; score: number }> = [];
  for (const id of state.roster) {
    const c = combatantOf(state, id);
    if (!c?.active) continue;
    const roll = rollInitiative(ctx, c, round, mode, req);
    events.push(...roll.events);
    scores.push({ c, score: roll.score });
  }
  const entries: AgendaEntry[] = [];
  for (const { c, score } of scores) {
    if (score < 1) continue;
    entries.push(turnEntry(ctx, c, round, score, `${c.name} acts (Mark ${score})`));
  }
  entries.sort((a, b) => compareTuples(a.at.at, b.at.at));
  // Labels name only the combatant itself: a label is shown to whoever sees the entry, and naming a
  // simultaneous partner here would leak a hidden one. The timeline adds the partners a viewer may see.
  const order: string[][] = [];
  for (const group of groupSimultaneous(entries)) {
    const ids: string[] = [];
    for (const e of group) if (e.combatant) ids.push(e.combatant);
    order.push(ids);
  }
  events.push({ type: 'tara/round-order', round, order });
  events.push(...scheduleAll(entries));
  const first = [...state.agenda.filter((a) => a.at.round === round), ...entries].sort((a, b) =>
    compareTuples(a.at.at, b.at.at),
  )[0];
  if (first) events.push(...reachEntry(state, first, entries));
  return events;
}

function groupSimultaneous(entries: AgendaEntry[]): AgendaEntry[][] {
  const groups: AgendaEntry[][] = [];
  for (const e of entries) {
    const last = groups.at(-1);
    const head = last?.[0];
    if (last && head && sameMoment(head.at, e.at)) last.push(e);
    else groups.push([e]);
  }
  return groups;
}

const text = (value: unknown, fallback: string): string => (typeof value === 'string' ? value : fallback);

/**
 * Reaching an agenda entry: the clock moves there, and what was schedule happens. `scheduling` holds
 * entries schedule by the same command and not yet on the agenda (a new Round's turns).
 */
export function reachEntry(
  state: TaraState,
  entry: AgendaEntry,
  scheduling: readonly AgendaEntry[] = [],
): TaraFact[] {
  const events: TaraFact[] = reach(entry);
  const who = entry.combatant;
  if (who === undefined) return events;
  const d = entry.data ?? {};
  const mark = MARKS_PER_ROUND - (entry.at.at[0] ?? 0);
  const round = entry.at.round;
  if (entry.kind === 'turn') {
    // 000 Ties: "If they are all the same, then simultaneous actions".
    const here = entry.at.at;
    const same = (at: { round: number; at: number[] }) => {
      if (at.round !== entry.at.round || at.at.length !== here.length) return false;
      for (let i = 0; i < here.length; i++) if (at.at[i] !== here[i]) return false;
      return true;
    };
    const partners: string[] = [];
    const add = (e: AgendaEntry) => {
      if (e.id !== entry.id && e.kind === 'turn' && e.combatant && same(e.at)) partners.push(e.combatant);
    };
    for (const e of state.agenda) add(e);
    for (const e of scheduling) add(e);
    if (state.now && state.current && state.current !== who && same(state.now))
      partners.unshift(state.current);
    if (partners.length > 0)
      events.push({ type: 'tara/simultaneous', combatant: who, with: partners, mark, at: entry.at });
  }
  if (entry.kind === 'attack') {
    events.push({
      type: 'tara/attack',
      combatant: who,
      action: text(d.action, ''),
      number: typeof d.number === 'number' ? d.number : 1,
      of: typeof d.of === 'number' ? d.of : 1,
      round,
      mark,
      ...(typeof d.target === 'string' ? { target: d.target } : {}),
    });
  }
  if (entry.kind === 'complete') {
    events.push({
      type: 'tara/action-completed',
      combatant: who,
      action: text(d.action, ''),
      name: text(d.name, text(d.action, 'action')),
      round,
      mark,
    });
  }
  if (entry.kind === 'resolve') {
    const casting = combatantOf(state, who)?.cs.casting;
    events.push({
      type: 'tara/spell-resolved',
      combatant: who,
      spell: text(d.spell, casting?.spell ?? 'spell'),
      round,
      mark,
    });
  }
  return events;
}
