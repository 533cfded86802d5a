import type { DecideContext, DiceRoll } from '@roundkeeper/engine';
import { rolled, schedule } from '@roundkeeper/engine';
import { isFree } from './catalog.js';
import type { ActParams } from './commands.js';
import type { TaraEventOf, TaraFact } from './events.js';
import { turnEntry } from './initiative.js';
import { attackOffsets, FULL_ACTION, instantAt, MARKS_PER_ROUND, markOf, tieKey } from './marks.js';
import type { Plan } from './rules.js';
import type { Casting, HistorySpan, StoredInstant, TaraCombatant, TaraTypes } from './types.js';

type Ctx = DecideContext<TaraTypes>;
/** One attack of an action, before its Mark: which, of how many, at whom. */
type AttackBase = Omit<TaraEventOf<'tara/attack-forfeited'>, 'type' | 'mark'>;
/** Carries out a checked action: the facts, what it schedules, what it forfeits. */
export function perform(ctx: Ctx, plan: Plan, p: ActParams): TaraFact[] {
  const { state } = ctx;
  const { actor, info, mark, action } = plan;
  const id = actor.id;
  const cs = actor.cs;
  const full = state.rs.roundMode === 'full';
  const round = state.round;
  const key = tieKey(actor.stats);
  const free = isFree(info);
  const events: TaraFact[] = [];
  const after: Partial<TaraCombatant> = {};
  const spans: HistorySpan[] = [];

  // Marks spent, and how long the action takes on the clock.
  let spent = plan.exception ? cs.marksLeft : Math.min(plan.marks, cs.marksLeft);
  let duration = plan.marks;
  let casting: Casting | null = null;
  if (info.rule === 'cast') {
    // 000 Casting Spells: "Starting a spell counts as a Full Action, but may take more (or less) than 15 Marks … If a spell's Casting Time is less than 15 Marks … the character cannot take another action until 15 Marks has passed."
    const t = plan.castingTime;
    duration = Math.max(FULL_ACTION, t);
    // Full Round: it goes off Casting Time Marks after it starts, maybe in the next Round (Mark 30 − overflow).
    // Simple Round: at the caster's Mark, unless the Casting Time is more than the Marks left.
    // Carry Over: the Marks the cast needs beyond those left bleed into the next Round (the 15 Marks of
    // the Full Action exception do not; a Casting Time beyond the Marks left always does).
    const left = cs.marksLeft;
    const needed = plan.exception ? t : duration;
    const overflow = Math.max(0, needed - left);
    let resolvesAt: StoredInstant;
    if (t > left) resolvesAt = instantAt(round, left - t, key, 'resolve');
    else if (full) resolvesAt = instantAt(round, mark - t, key, 'resolve');
    else resolvesAt = instantAt(round, mark, key, 'resolve');
    spent = overflow > 0 || plan.exception ? left : Math.min(duration, left);
    const entry = ctx.newId('spell');
    casting = {
      spell: p.spell ?? 'spell',
      castingTime: t,
      startedAt: state.now ?? { round, at: [0] },
      resolvesAt,
      entry,
      combatCasting: p.combatCasting ?? false,
      combatCastingMoved: 0,
    };
    after.casting = casting;
    // Carry Over: "subtracting it from their Initiative Roll".
    if (overflow > 0) after.carryOver = overflow;
    const immediate = !full && t <= left;
    if (!immediate) {
      events.push(
        schedule({
          id: entry,
          at: resolvesAt,
          kind: 'resolve',
          combatant: id,
          label: `${actor.name}'s ${casting.spell} goes off (Mark ${markOf(resolvesAt)})`,
          ...(actor.hidden ? { secret: true } : {}),
          data: { spell: casting.spell },
        }),
      );
      if (resolvesAt.round > round) {
        spans.push({ round, combatant: id, from: mark, to: 1, kind: 'cast', label: casting.spell });
        // A spell longer than the Round takes every Round in between whole.
        for (let r = round + 1; r < resolvesAt.round; r++) {
          spans.push({
            round: r,
            combatant: id,
            from: MARKS_PER_ROUND,
            to: 1,
            kind: 'carry',
            label: `${casting.spell} (carried over)`,
          });
        }
        spans.push({
          round: resolvesAt.round,
          combatant: id,
          from: MARKS_PER_ROUND,
          to: markOf(resolvesAt),
          kind: 'carry',
          label: `${casting.spell} (carried over)`,
        });
      }
    }
  }

  // Any other action that carries over: done in the next Round at Mark 30 − the Marks it still needs.
  if (plan.carry && info.rule !== 'cast') {
    const overflow = plan.marks - cs.marksLeft;
    spent = cs.marksLeft;
    const completesAt = instantAt(round, -overflow, key, 'resolve');
    const entry = ctx.newId('done');
    after.carrying = { action: action.id, name: action.name, completesAt, entry };
    after.carryOver = overflow;
    events.push(
      schedule({
        id: entry,
        at: completesAt,
        kind: 'complete',
        combatant: id,
        label: `${actor.name}'s ${action.name} is done (Mark ${markOf(completesAt)})`,
        ...(actor.hidden ? { secret: true } : {}),
        data: { action: action.id, name: action.name },
      }),
    );
    spans.push({ round, combatant: id, from: mark, to: 1, kind: 'action', label: action.name });
    spans.push({
      round: completesAt.round,
      combatant: id,
      from: MARKS_PER_ROUND,
      to: markOf(completesAt),
      kind: 'carry',
      label: `${action.name} (carried over)`,
    });
  }

  const marksLeft = cs.marksLeft - spent;
  after.marksLeft = marksLeft;
  if (plan.exception) after.fullActionException = true;
  if (!free) after.acted = true;

  // Movement (paid or granted by an ability).
  if (plan.units > 0) {
    after.movedThisRound = true;
    after.landSpeedUsed = cs.landSpeedUsed + plan.landSpeedUnits;
    after.unitsMoved = cs.unitsMoved + plan.units;
    after.meleeSet = false;
    after.rangedSet = false;
    after.rangedUnsetBy = null;
    after.castingSet = false;
    if (info.rule === 'combat-casting-move' && cs.casting) {
      after.casting = { ...cs.casting, combatCastingMoved: cs.casting.combatCastingMoved + plan.units };
    }
  }
  // Setting: a Set (or an ability that Sets automatically) readies melee, shooting and Combat Casting.
  if (info.rule === 'set' || info.flags.autoSet) {
    after.meleeSet = true;
    after.rangedSet = true;
    after.castingSet = true;
  } else if (!free && info.rule !== 'move') {
    // "If shooting a ranged attack preceded by a non-Free Action, unless That last Action was a ranged
    // attack": a shot keeps the ranged Set, a melee attack or any other non-Free Action loses it.
    // Attacks granted by a GM-defined ability count as the ability's own (Firing Assault, Stand and Fire).
    const shot = info.rule === 'ranged-attack' || info.rule === 'desperate-shot';
    const grantedAttack = info.rule === 'generic' && plan.attacks > 0;
    if (!shot && !grantedAttack && plan.units === 0) {
      after.rangedSet = false;
      after.rangedUnsetBy = action.name;
    }
    // "Before using the Combat Casting Skill": the text lists no exception for attacks here, so any
    // non-Free Action since the Set (an attack too) calls for a new one.
    after.castingSet = false;
  }
  if (info.rule === 'cast') after.castingSet = false;
  if (info.rule === 'channel') after.channeling = 'channeling';
  if (info.rule === 'break-channel') {
    after.channeling = 'broken';
    after.actedAt = null;
    // The Marks that went by while Channeling are gone in a Full Round.
    if (full) after.marksLeft = Math.min(cs.marksLeft, mark);
  }

  // When the action ends on the clock (a Full Round), and when the actor can act again.
  const ends = full ? mark - duration : mark;
  if (full && !free && !plan.outOfTurn) after.actedAt = state.now;
  const endLeft = after.marksLeft ?? marksLeft;
  if (full && !free && !plan.outOfTurn && info.rule !== 'channel') {
    const again = info.rule === 'cast' && plan.castingTime > FULL_ACTION ? mark - plan.castingTime : ends;
    if (endLeft > 0 && again >= 1) {
      events.push(schedule(turnEntry(ctx, actor, round, again, `${actor.name} acts again (Mark ${again})`)));
    }
  }
  if (info.rule === 'break-channel' && endLeft > 0 && state.current !== id) {
    const now = state.now ?? { round, at: [0] };
    const entry = turnEntry(ctx, actor, round, mark, `${actor.name} acts after breaking the Channel`);
    // Right after the turn in progress (not a tie at this Mark): `afterChannel` says why, for a refusal.
    const data = { ...entry.data, afterChannel: true };
    events.push(schedule({ ...entry, at: { round: now.round, at: [...now.at, 1] }, data }));
  }
  const carried = spans.length > 0;
  if (!free && info.rule !== 'channel' && !carried) {
    spans.push({
      round,
      combatant: id,
      from: mark,
      to: full ? Math.max(1, mark - Math.max(duration, 1) + 1) : mark,
      kind: info.rule === 'move' ? 'move' : info.rule === 'cast' ? 'cast' : 'action',
      label: casting ? casting.spell : action.name,
    });
  }
  if (info.rule === 'channel')
    spans.push({ round, combatant: id, from: mark, to: 1, kind: 'channel', label: 'Channeling' });

  const acted: TaraEventOf<'tara/acted'> = {
    type: 'tara/acted',
    combatant: id,
    action: action.id,
    name: action.name,
    round,
    mark,
    marks: spent,
    marksLeft: after.marksLeft ?? marksLeft,
    after,
    spans,
  };
  if (plan.units > 0) acted.units = plan.units;
  if (plan.exception) acted.exception = true;
  if (plan.outOfTurn) acted.outOfTurn = true;
  if (p.target) acted.target = p.target;
  if (p.defending && info.rule === 'melee-attack') acted.defending = true;
  if (after.carrying) {
    acted.completesAt = after.carrying.completesAt;
    acted.carryOver = after.carryOver ?? 0;
  }
  if (casting) {
    acted.castingTime = plan.castingTime;
    acted.resolvesAt = casting.resolvesAt;
    if (after.carryOver) acted.carryOver = after.carryOver;
  }
  events.push(acted);

  // Attacks: 000 "If a character has subsequent attacks, they take place evenly spaced within that 15 Marks of time (in the case of a Full Round)".
  if (plan.attacks > 0) {
    const granted = info.rule === 'generic';
    const offsets = full && !granted ? attackOffsets(plan.attacks) : new Array<number>(plan.attacks).fill(0);
    offsets.forEach((offset, i) => {
      const number = i + 1;
      const at = mark - offset;
      const base: AttackBase = {
        combatant: id,
        action: action.id,
        number,
        of: plan.attacks,
        round,
        ...(p.target ? { target: p.target } : {}),
      };
      if (offset === 0) {
        events.push(...attackNow(ctx, plan, base, at, p));
      } else if (at >= 1) {
        events.push(
          schedule({
            id: ctx.newId('attack'),
            at: instantAt(round, at, key, 'attack'),
            kind: 'attack',
            combatant: id,
            label: `${actor.name}'s attack ${number} of ${plan.attacks} (Mark ${at})`,
            ...(actor.hidden ? { secret: true } : {}),
            data: { action: action.id, number, of: plan.attacks, ...(p.target ? { target: p.target } : {}) },
          }),
        );
      } else {
        // 000: "In this case, the Dwarf could not get all attacks off that Round, and forfeits that last attack."
        events.push({ type: 'tara/attack-forfeited', ...base, mark: at });
      }
    });
  }
  const resolvesLater = events.some((e) => e.type === 'agenda/scheduled' && e.entry.kind === 'resolve');
  if (casting && !full && !resolvesLater) {
    events.push({ type: 'tara/spell-resolved', combatant: id, spell: casting.spell, round, mark });
  }
  // A character defeated at the Mark of a simultaneous action takes that action and nothing after it:
  // later attacks, a next action, a spell still to go off or an action still to finish are gone.
  if (!actor.active) {
    const kept = events.filter((e) => e.type !== 'agenda/scheduled');
    if (casting && resolvesLater)
      kept.push({ type: 'tara/spell-fizzled', combatant: id, spell: casting.spell });
    if (after.carrying)
      kept.push({ type: 'tara/carry-dropped', combatant: id, action: action.id, name: action.name });
    return kept;
  }
  return events;
}

/** An attack that happens now; a Desperate Shot checks its attack dice. */
function attackNow(ctx: Ctx, plan: Plan, base: AttackBase, mark: number, p: ActParams): TaraFact[] {
  const events: TaraFact[] = [];
  const attack: TaraEventOf<'tara/attack'> = { type: 'tara/attack', ...base, mark };
  if (plan.info.rule === 'desperate-shot') {
    // 000 Desperate Shot: "any Natural roll of 5 or less on either attack die results in a miss, no matter the bonuses or range".
    let faces = p.faces;
    if (!faces) {
      const roll: DiceRoll = ctx.roll(ctx.state.options.attackDice);
      faces = roll.faces;
      events.push(rolled(plan.actor.id, 'Desperate Shot', roll));
    }
    attack.desperate = true;
    attack.faces = faces;
    attack.miss = faces.some((f) => f <= 5);
  }
  events.push(attack);
  return events;
}
