import {
  type ActionDef,
  type Combatant,
  candidates,
  compareInstants,
  isRejection,
  type LegalAction,
  notRunning,
  type Rejection,
  reject,
} from '@roundkeeper/engine';
import { type ActionInfo, carriesOver, infoOf, isFree, taraCatalog } from './catalog.js';
import type { ActParams } from './commands.js';
import { FULL_ACTION, instantAt, MARKS_PER_ROUND, MAX_CASTING_TIME, markOf } from './marks.js';
import type { TaraState, TaraTypes } from './types.js';

type TaraCombatantOf = Combatant<TaraTypes>;

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

export function currentMark(state: TaraState): number {
  return state.now && state.now.round === state.round ? markOf(state.now) : MARKS_PER_ROUND;
}

function nextTurnMark(state: TaraState, id: string): number | null {
  const e = nextTurn(state, id);
  return e ? markOf(e.at) : null;
}

function nextTurn(state: TaraState, id: string) {
  return state.agenda.find((a) => a.kind === 'turn' && a.combatant === id && a.at.round === state.round);
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
    // A turn stepped in right after the current one (the Channel broken during it) is no tie at this Mark.
    const afterChannel = own === mark && nextTurn(state, id)?.data?.afterChannel === true;
    const when =
      own === null
        ? `${action.name} waits for the next Round's roll: ${name} has no Mark left to act at this Round`
        : afterChannel && currentName
          ? `${name} broke the Channel during ${currentName}'s turn and acts right after it, at this Mark: ${action.name} can be taken then, once ${currentName}'s turn ends (Next)`
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

/** Every catalog action for the actor: enabled with its cost and where it lands, or why not. */
export function legalActions(
  state: TaraState,
  id: string,
  only?: (action: ActionDef) => boolean,
): LegalAction[] {
  const catalog = taraCatalog(state);
  return (only ? candidates(catalog, only) : catalog).map((action) => {
    const params: ActParams = action.data?.rule === 'cast' ? { castingTime: 15 } : {};
    const plan = check(state, id, action, params);
    if (isRejection(plan))
      return { action, enabled: false, reason: plan.message, code: plan.code, cost: action.cost };
    const cost = { marks: plan.exception ? (state.combatants[id]?.cs.marksLeft ?? 0) : plan.marks };
    const out: LegalAction = { action, enabled: true, cost };
    if (state.now && plan.marks > 0) {
      const full = state.rs.roundMode === 'full';
      const to = full ? plan.mark - plan.marks : plan.mark;
      out.preview = {
        from: state.now,
        to: instantAt(state.round, Math.max(to, 1), [], 'turn'),
        label: full ? `Mark ${plan.mark} → Mark ${Math.max(to, 0)}` : `at Mark ${plan.mark}`,
      };
    }
    return out;
  });
}
