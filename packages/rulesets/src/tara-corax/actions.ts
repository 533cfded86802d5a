import {
  type ActionDef,
  type Combatant,
  compareInstants,
  type DecideContext,
  type EngineEvent,
  type Instant,
  type JsonObject,
  notRunning,
  type Rejection,
  reject,
  schedule,
} from '@roundkeeper/engine';
import { type ActionInfo, infoOf, TARA_CATALOG } from './catalog.js';
import { turnEntry } from './initiative.js';
import {
  attackOffsets,
  FULL_ACTION,
  instantAt,
  MARKS_PER_ROUND,
  MAX_CASTING_TIME,
  markOf,
  tieKey,
} from './marks.js';
import type { Casting, HistorySpan, TaraCombatant, TaraState, TaraTypes } from './types.js';

type Ctx = DecideContext<TaraTypes>;
type TaraCombatantOf = Combatant<TaraTypes>;

/** What the GM says with an action beyond its name. */
export interface ActParams {
  units?: number;
  castingTime?: number;
  spell?: string;
  target?: string;
  throwing?: boolean;
  /** Someone moved into melee with this character, who defends: no Set needed (000 Setting). */
  defending?: boolean;
  combatCasting?: boolean;
  check?: number;
  faces?: number[];
}

/** A checked action: everything needed to carry it out. */
export interface Plan {
  action: ActionDef;
  info: ActionInfo;
  actor: TaraCombatantOf;
  /** The Mark it happens at. */
  mark: number;
  /** Taken outside the actor's own turn (a Free or reactive action). */
  outOfTurn: boolean;
  /** Marks the action costs as written (before the Full Action exception). */
  marks: number;
  /** Started with too few Marks left: the rest carries over into the next Round (000 Carry Over). */
  carry: boolean;
  /** 000: "a character can always perform a Full Action once per Round, even if they don't have enough Initiative Score IF AND ONLY IF they have performed no other Action that Round". */
  exception: boolean;
  /** Units moved, and how many of them count against Land Speed. */
  units: number;
  landSpeedUnits: number;
  /** Attacks made (0 when none). */
  attacks: number;
  castingTime: number;
}

export function taraCatalog(state: TaraState): ActionDef[] {
  return [...TARA_CATALOG, ...state.customActions];
}

function isFree(info: ActionInfo): boolean {
  return info.marks === 0 && info.rule !== 'move' && info.rule !== 'channel';
}

const NEVER_CARRIED: ReadonlySet<string> = new Set([
  'move',
  'melee-attack',
  'ranged-attack',
  'desperate-shot',
  'channel',
  'break-channel',
  'combat-casting-move',
]);

/**
 * 000 Carry Over: "Initiative can carry over into the following Round if there is a certain number of
 * Initiative Marks it takes to complete. This IS NOT the case with attacks and movement." A spell, a
 * potion, a Skill, an item: yes; an attack (or an ability that attacks or moves) and movement: no.
 */
export function carriesOver(info: ActionInfo): boolean {
  if (isFree(info) || NEVER_CARRIED.has(info.rule)) return false;
  const f = info.flags;
  return !f.attack && f.grantsAttack === undefined && f.freeMove === undefined;
}

export function currentMark(state: TaraState): number {
  return state.now && state.now.round === state.round ? markOf(state.now) : MARKS_PER_ROUND;
}

function nextTurnMark(state: TaraState, id: string): number | null {
  const e = state.agenda.find((a) => a.kind === 'turn' && a.combatant === id && a.at.round === state.round);
  return e ? markOf(e.at) : null;
}

const fail = (code: string, message: string): Rejection => reject(code, message);

/** What a character's last action this Round was, in words ("casting Sleep", "with Melee attacks"). */
function lastActivity(state: TaraState, id: string): string {
  const span = state.rs.history.spans.findLast((s) => s.combatant === id && s.round === state.round);
  if (!span) return 'with the last action';
  if (span.kind === 'cast') return `casting ${span.label}`;
  if (span.kind === 'move') return 'moving';
  return `with ${span.label}`;
}

/**
 * 000 Ties: "If they are all the same, then simultaneous actions". While the clock stands at the instant
 * of a full tie, every combatant of it acts at that Mark, in either order (and one defeated there by a
 * simultaneous blow still takes that action).
 */
export function actsSimultaneouslyNow(state: TaraState, id: string): boolean {
  const t = state.rs.together;
  return !!t && !!state.now && compareInstants(t.at, state.now) === 0 && t.ids.includes(id);
}

/**
 * Whether the actor may take the action now, and at what cost: the budget (000 "This Initiative Score
 * is 'spent'"), the Full Round's timing, Setting, Channeling, Land Speed. Never rolls.
 */
export function check(state: TaraState, id: string, action: ActionDef, p: ActParams): Plan | Rejection {
  const actor = state.combatants[id];
  if (!actor)
    return fail(
      'combatant/unknown',
      `There is no combatant "${id}" (combatants: ${state.roster.join(', ') || 'none'}).`,
    );
  const stopped = notRunning(state);
  if (stopped) return fail(stopped.code, stopped.message);
  if (state.rs.phase === 'between') {
    return fail(
      'round/between',
      `Round ${state.round} has ended; press Next to roll Initiative for round ${state.round + 1} before anyone acts.`,
    );
  }
  if (!actor.active && !actsSimultaneouslyNow(state, id))
    return fail(
      'combatant/defeated',
      `${actor.name} is out of the fight; revive them to bring them back, and they act again from the next Round's roll.`,
    );
  const cs = actor.cs;
  const info = infoOf(action);
  const name = actor.name;
  const free = isFree(info);
  const mark = currentMark(state);

  // 000 Channeling: "uses ALL Initiative in a Round and can make no other Action, including a Free Action".
  if (info.rule === 'break-channel') {
    if (cs.channeling !== 'channeling')
      return fail(
        'channel/not-channeling',
        `${name} is not Channeling, so there is nothing to break; only a character who Channels can break it.`,
      );
  } else if (cs.channeling === 'channeling') {
    return fail(
      'channel/channeling',
      `${name} is Channeling and can make no other Action, not even a Free Action; break the Channel first (Break the Channel).`,
    );
  } else if (cs.channeling === 'broken' && !(free || info.rule === 'move')) {
    return fail(
      'channel/broken',
      `${name} broke the Channel this Round and can only move and take Free Actions until the Round ends.`,
    );
  }

  const outOfTurn = state.current !== id && !actsSimultaneouslyNow(state, id);
  if (outOfTurn && !free && !info.flags.reactive) {
    const who = state.current
      ? `${state.combatants[state.current]?.name ?? state.current}'s turn`
      : 'no one’s turn';
    // 000: the Initiative Score is "the place within the 30 Marks of a Round that a character can act".
    const own = nextTurnMark(state, id);
    const anyTime = '(only Free and reactive actions can be taken any time)';
    // 000 The Full Round: "Subsequent Action then take place the number of Marks later, equal to the last
    // Action they took"; Casting Spells: "cannot take another action until 15 Marks has passed".
    const currentName = state.current ? (state.combatants[state.current]?.name ?? state.current) : null;
    const busy =
      own !== null && own !== mark && state.rs.roundMode === 'full' && cs.actedAt?.round === state.round
        ? lastActivity(state, id)
        : null;
    if (busy) {
      return fail(
        'turn/not-yours',
        `It is Mark ${mark}: ${name} is busy ${busy} until Mark ${own}; ${action.name} can be taken then ${anyTime}.`,
      );
    }
    const when =
      own === null
        ? `${action.name} waits for the next Round's roll: ${name} has no Mark left to act at this Round`
        : own === mark && currentName
          ? `${name} acts at this Mark too, after ${currentName}'s turn (a tie goes to the higher raw Initiative, then Agility, then Intellect): ${action.name} can be taken then, once the GM presses Next`
          : `${action.name} is taken when ${name}'s own Mark comes up (Mark ${own})`;
    return fail('turn/not-yours', `It is Mark ${mark}, ${who}; ${when} ${anyTime}.`);
  }
  // 000 The Full Round: "Subsequent Action then take place the number of Marks later, equal to the last Action they took."
  if (
    !outOfTurn &&
    !free &&
    state.rs.roundMode === 'full' &&
    cs.actedAt &&
    state.now &&
    compareInstants(cs.actedAt, state.now) === 0
  ) {
    const at = nextTurnMark(state, id);
    return fail(
      'action/busy',
      at === null
        ? `${name} has no time left this Round for another action (only Free Actions); press Next.`
        : `${name} is busy until Mark ${at}: in a Full Round the next action starts when the last one's Marks have elapsed. Press Next.`,
    );
  }

  let marks = info.marks;
  let units = 0;
  let landSpeedUnits = 0;
  let attacks = 0;
  let castingTime = 0;
  const landLeft = actor.stats.landSpeed - cs.landSpeedUsed;
  switch (info.rule) {
    case 'move': {
      // 000 Movement: "A character can move 1 Unit for 1 Mark of Initiative Score, up to their Land Speed Score."
      units = p.units ?? 1;
      // Moving nowhere is no Action: it would cost no Marks yet count as acting (no Full Action
      // exception, no full volley) and, in a Full Round, end the turn.
      if (units === 0) {
        return fail(
          'move/no-units',
          `Moving 0 Units is no movement; enter the Units to move (1 Mark per Unit, at most ${Math.max(0, Math.min(cs.marksLeft, landLeft))} now).`,
        );
      }
      landSpeedUnits = units;
      marks = units * info.marks;
      if (units > cs.marksLeft) {
        return fail(
          'budget/insufficient',
          `Moving ${units} Units needs ${marks} Marks; ${name} has ${cs.marksLeft} left, so can move at most ${Math.min(cs.marksLeft, Math.max(0, landLeft))} Units now (movement never carries over into the next Round).`,
        );
      }
      break;
    }
    case 'combat-casting-move': {
      // 000 Casting in Combat: "he can move 1 Unit per 3 RO over a Target Number of 2 … counts against his Land Speed total but is considered a Free Action while casting."
      if (!cs.casting?.combatCasting) {
        return fail(
          'combat-casting/not-casting',
          `${name} is not casting with Combat Casting; this movement is free only while casting a spell cast with Combat Casting. Use Move (1 Mark per Unit) instead.`,
        );
      }
      const allowed = p.check === undefined ? undefined : Math.max(0, Math.floor((p.check - 2) / 3));
      units = p.units ?? allowed ?? 1;
      if (allowed !== undefined && units > allowed) {
        return fail(
          'combat-casting/too-far',
          `A Combat Casting Check of ${p.check} allows ${allowed} Units (1 per 3 over a Target Number of 2); ${units} is too many.`,
        );
      }
      landSpeedUnits = units;
      break;
    }
    case 'melee-attack': {
      // 000 Setting: "If attacking in melee if moved that same round" a Set is required; "If a defender
      // and someone moving into melee with you, you do not need to Set."
      const movedIntoMelee = cs.movedThisRound && !p.defending;
      if (movedIntoMelee && !cs.meleeSet) {
        return fail(
          'set/required',
          `${name} moved this Round and must Set (Quarter Action, 5 Marks) before attacking in melee, unless an ability Sets automatically or someone moved into melee with ${name} (then tick Defending).`,
        );
      }
      // "the Round they move into Combat is limited to a single attack".
      attacks = movedIntoMelee ? 1 : actor.stats.meleeAttacks;
      break;
    }
    case 'ranged-attack': {
      // 000 Setting: "If shooting a ranged attack preceded by a non-Free Action, unless That last Action was a ranged attack / Using a Throwing Weapon".
      if (!cs.rangedSet && !p.throwing) {
        const why = cs.rangedUnsetBy ? `acted (${cs.rangedUnsetBy})` : 'moved';
        return fail(
          'set/required',
          `${name} ${why} since last Setting and must Set (Quarter Action, 5 Marks) before shooting; a throwing weapon or a Desperate Shot needs no Set.`,
        );
      }
      // "Perform a full number of attacks per Round of ranged attacks if not acted / a single ranged attack if acted previous".
      attacks = cs.acted ? 1 : actor.stats.rangedAttacks;
      break;
    }
    case 'desperate-shot':
      attacks = 1;
      break;
    case 'cast': {
      if (p.castingTime === undefined) {
        return fail(
          'cast/casting-time',
          `Enter the Casting Time (Marks) so Roundkeeper knows when the spell goes off.`,
        );
      }
      if (cs.casting) {
        const at = cs.casting.resolvesAt;
        const when =
          at.round === state.round ? `Mark ${markOf(at)}` : `Mark ${markOf(at)} of round ${at.round}`;
        return fail(
          'cast/already-casting',
          `${name} is still casting ${cs.casting.spell}, which goes off at ${when}; a new spell can start after that (or once it fizzles).`,
        );
      }
      if (p.castingTime > MAX_CASTING_TIME) {
        return fail(
          'cast/casting-time',
          `A Casting Time of ${p.castingTime} Marks is more than ${MAX_CASTING_TIME / MARKS_PER_ROUND} Rounds, the longest Roundkeeper follows; enter at most ${MAX_CASTING_TIME} Marks (and Fizzle the spell or recast it later if the ritual runs longer).`,
        );
      }
      // 000 Setting: "Before using the Combat Casting Skill."
      if (p.combatCasting && !cs.castingSet) {
        return fail(
          'set/required',
          `${name} must Set (Quarter Action, 5 Marks) before using the Combat Casting Skill.`,
        );
      }
      castingTime = p.castingTime;
      marks = FULL_ACTION;
      break;
    }
    case 'channel':
      if (cs.acted) {
        return fail(
          'channel/acted',
          `Channeling uses ALL of a Round's Initiative; ${name} has already acted this Round, so can Channel only in a Round before taking any other Action.`,
        );
      }
      break;
    default: {
      const f = info.flags;
      if (f.freeMove !== undefined) {
        units = p.units ?? f.freeMove;
        if (units > f.freeMove) {
          return fail(
            'move/too-far',
            `${action.name} moves at most ${f.freeMove} Units; ${units} is too many.`,
          );
        }
        if (f.countsAgainstLandSpeed) landSpeedUnits = units;
      }
      if (f.grantsAttack) attacks = f.grantsAttack;
    }
  }
  if (landSpeedUnits > landLeft) {
    return fail(
      'move/land-speed',
      `${name} has a Land Speed of ${actor.stats.landSpeed} and has moved ${cs.landSpeedUsed} Units this Round; ${landSpeedUnits} more is too far (at most ${Math.max(0, landLeft)}).`,
    );
  }
  if (units < 0 || !Number.isInteger(units))
    return fail('move/units', 'Units moved are a whole number, 0 or more.');

  let exception = false;
  let carry = false;
  if (marks > cs.marksLeft) {
    const eligible = marks === FULL_ACTION && !cs.acted && !cs.fullActionException;
    // The Full Action exception first (nothing carries over). A Full Action is otherwise refused: the
    // exception is "IF AND ONLY IF they have performed no other Action that Round". Any other action
    // that may carry over starts with the Marks left and finishes in the next Round.
    const full = marks === FULL_ACTION;
    if (eligible) exception = true;
    else if (!full && carriesOver(info) && cs.marksLeft > 0) carry = true;
    else {
      const why = full
        ? cs.fullActionException
          ? ' (the once-per-Round Full Action is used)'
          : ' (a Full Action without enough Initiative is allowed only if no other Action was taken this Round)'
        : '';
      const never = !carriesOver(info) ? 'Attacks and movement never carry over into the next Round: c' : 'C';
      const advice =
        cs.marksLeft > 0
          ? `${never}hoose an action of ${cs.marksLeft} Marks or less, or a Quarter or Half Action that may carry over into the next Round (a potion, a Skill, an item), or wait for the next Round.`
          : 'Only Free Actions remain this Round; wait for the next Round.';
      return fail(
        'budget/insufficient',
        `${action.name} needs ${marks} Marks; ${name} has ${cs.marksLeft} left${why}. ${advice}`,
      );
    }
  }
  return {
    action,
    info,
    actor,
    mark,
    outOfTurn,
    marks,
    carry,
    exception,
    units,
    landSpeedUnits,
    attacks,
    castingTime,
  };
}

/** Carries out a checked action: the facts, what it schedules, what it forfeits. */
export function perform(ctx: Ctx, plan: Plan, p: ActParams): EngineEvent[] {
  const { state } = ctx;
  const { actor, info, mark, action } = plan;
  const id = actor.id;
  const cs = actor.cs;
  const full = state.rs.roundMode === 'full';
  const round = state.round;
  const key = tieKey(actor.stats);
  const free = isFree(info);
  const events: EngineEvent[] = [];
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
    let resolvesAt: Instant;
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
      events.push(schedule(turnEntry(ctx, id, round, again, `${actor.name} acts again (Mark ${again})`)));
    }
  }
  if (info.rule === 'break-channel' && endLeft > 0 && state.current !== id) {
    const now = state.now ?? { round, at: [0] };
    const entry = turnEntry(ctx, id, round, mark, `${actor.name} acts after breaking the Channel`);
    events.push(schedule({ ...entry, at: { round: now.round, at: [...now.at, 1] } }));
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

  const acted: EngineEvent = {
    type: 'tara/acted',
    combatant: id,
    action: action.id,
    name: action.name,
    round,
    mark,
    marks: spent,
    marksLeft: after.marksLeft ?? marksLeft,
    after: after as unknown as JsonObject,
    spans: spans as unknown as JsonObject[],
  };
  if (plan.units > 0) acted.units = plan.units;
  if (plan.exception) acted.exception = true;
  if (plan.outOfTurn) acted.outOfTurn = true;
  if (p.target) acted.target = p.target;
  if (p.defending && info.rule === 'melee-attack') acted.defending = true;
  if (after.carrying) {
    acted.completesAt = after.carrying.completesAt as unknown as JsonObject;
    acted.carryOver = after.carryOver ?? 0;
  }
  if (info.rule === 'cast') {
    acted.castingTime = plan.castingTime;
    acted.resolvesAt = casting!.resolvesAt as unknown as JsonObject;
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
      const base = {
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
  const resolvesLater = events.some(
    (e) => e.type === 'agenda/scheduled' && (e.entry as { kind?: string }).kind === 'resolve',
  );
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
function attackNow(ctx: Ctx, plan: Plan, base: JsonObject, mark: number, p: ActParams): EngineEvent[] {
  const events: EngineEvent[] = [];
  const attack: EngineEvent = { type: 'tara/attack', ...base, mark };
  if (plan.info.rule === 'desperate-shot') {
    // 000 Desperate Shot: "any Natural roll of 5 or less on either attack die results in a miss, no matter the bonuses or range".
    let faces = p.faces;
    if (!faces) {
      const roll = ctx.roll(ctx.state.options.attackDice);
      faces = roll.faces;
      events.push({
        type: 'dice/rolled',
        combatant: plan.actor.id,
        purpose: 'Desperate Shot',
        roll: roll as unknown as JsonObject,
      });
    }
    attack.desperate = true;
    attack.faces = faces;
    attack.miss = faces.some((f) => f <= 5);
  }
  events.push(attack);
  return events;
}

export function instantLabel(at: Instant): string {
  return `Round ${at.round} · Mark ${markOf(at)}`;
}
