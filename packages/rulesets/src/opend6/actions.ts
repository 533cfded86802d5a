import {
  type ActionDef,
  actionById,
  type Combatant,
  catalogWith,
  compareTuples,
  notRunning,
  type Rejection,
  reject,
} from '@roundkeeper/engine';
import { type ActionFlags, flagsOf, OPEND6_CATALOG } from './catalog.js';
import { rollOptions } from './codes.js';
import type { AnyEvent } from './events.js';
import { type EffectiveCode, effective, penalized, penaltyFor, type RollKind, traitOf } from './penalty.js';
import type { Ctx, Opend6Types, State } from './types.js';

type C = Combatant<Opend6Types>;

/**
 * The built-in catalog, then the GM's custom actions: made once per custom-action list (`catalogWith`), not
 * at every legality check. Read only.
 */
export function catalog(state: State): readonly ActionDef[] {
  return catalogWith(OPEND6_CATALOG, state.customActions);
}

/** The action `id` of this encounter's catalog (`catalog(state).find` by id, without the walk). */
export function actionOf(state: State, id: string): ActionDef | undefined {
  return actionById(catalog(state), id);
}

/**
 * How an action is being taken: on the character's turn, as an interrupt after waiting, waiting again
 * right after an interrupt, or moved up.
 */
export type Mode = 'turn' | 'interrupt' | 'wait-again' | 'move-up';

export type Check = { ok: true } | { ok: false; code: string; reason: string };
const no = (code: string, reason: string): Check => ({ ok: false, code, reason });
/** The one answer for every check passed (read only): nothing is made per check. */
const OK: Check = Object.freeze({ ok: true });

/** Whether the character still has a turn coming this round (her own, or her group's). */
export function turnAhead(state: State, c: C): boolean {
  return state.agenda.some(
    (e) =>
      e.kind === 'turn' &&
      e.at.round === state.round &&
      (e.combatant === c.id || (c.side === 'npc' && c.group !== undefined && e.data?.group === c.group)),
  );
}

/**
 * Whether the character has just interrupted: her interrupt is the last thing anyone did this round and
 * the clock is still at its moment. 002: "A character may take a few actions, wait, take a few more, wait
 * again" — right after an interrupt spent her wait, she may wait again.
 */
export function justInterrupted(state: State, c: C): boolean {
  const last = state.rs.happened.at(-1);
  return (
    last !== undefined &&
    last.round === state.round &&
    last.combatant === c.id &&
    last.kind === 'interrupt' &&
    state.now !== null &&
    state.now.round === state.round &&
    compareTuples(state.now.at, last.at) === 0
  );
}

/** The mode of taking `action` now: waiting right after one's own interrupt is waiting again. */
export function modeFor(state: State, c: C, action: ActionDef): Mode {
  const mode = modeOf(state, c);
  return mode === 'move-up' && flagsOf(action).wait && justInterrupted(state, c) ? 'wait-again' : mode;
}

export function modeOf(state: State, c: C): Mode {
  if (state.rs.acting.includes(c.id)) return 'turn';
  if (c.cs.waiting) return 'interrupt';
  return 'move-up';
}

/** A character out of the fight or unable to act is told so first, whatever he tried. */
export function unableCheck(c: C): Check {
  if (!c.active)
    return no(
      'combatant/defeated',
      `${c.name} is out of the fight; the GM brings ${c.name} back into the order by reviving them (Revive).`,
    );
  if (c.cs.unable) {
    return no(
      'combatant/unable',
      `${c.name} is ${c.cs.unable} and cannot act; ${c.name} acts again once the GM records the recovery (Recover).`,
    );
  }
  return OK;
}

/**
 * Why a character who is not waiting cannot act out of turn on a wait (`what`: "may interrupt"), and
 * what is left to her: whether she waited this round and what ended it, then whether she can still
 * wait (now, right after her interrupt, or on her turn) or only next round.
 */
export function notWaiting(state: State, c: C, what: string): string {
  const mine = state.rs.happened.filter((h) => h.round === state.round && h.combatant === c.id);
  const lastWait = mine.map((h) => h.kind).lastIndexOf('wait');
  let head: string;
  if (lastWait < 0) head = `${c.name} has not waited this round; only a character who waited ${what}.`;
  else {
    const next = mine.slice(lastWait + 1).find((h) => h.kind !== 'free' && h.kind !== 'lost');
    const how =
      next?.kind === 'interrupt' ? ' (interrupting)' : next?.kind === 'move-up' ? ' (moved up)' : '';
    const ended = next ? `with the ${next.label}${how}` : `when ${c.name} chose to act after the turn`;
    head = `${c.name} waited this round, but the wait ended ${ended}; only a character still waiting ${what}.`;
  }
  const declared = c.cs.declared;
  let then: string;
  if (declared !== null && c.cs.used >= declared)
    then = `${c.name} has used ${declared === 1 ? 'the one declared action' : `all ${declared} declared actions`} and acts again next round.`;
  else if (justInterrupted(state, c))
    then = `${c.name} may wait again now, right after the interrupt (Waiting, one of the declared actions).`;
  else if (state.rs.acting.includes(c.id) || turnAhead(state, c))
    then = `${c.name} may wait on their turn${state.rs.acting.includes(c.id) ? ', now' : ''} (Waiting, one of the declared actions).`;
  else
    then = `${c.name}'s turn this round is over, so ${c.name} cannot wait again and acts again next round.`;
  return `${head} ${then}`;
}

/**
 * Whether `c` may take `action` now, in `mode`, having declared `declared` actions. Every refusal says
 * why and what would make it legal.
 */
export function legality(
  state: State,
  c: C,
  action: ActionDef,
  mode: Mode,
  declared: number | null,
  flags: ActionFlags = flagsOf(action),
): Check {
  const stopped = notRunning(state);
  if (stopped) return no(stopped.code, stopped.message);
  const out = unableCheck(c);
  if (!out.ok) return out;
  if (mode === 'turn' && !state.rs.acting.includes(c.id)) {
    const now = state.rs.acting.map((id) => state.combatants[id]?.name ?? id).join(', ') || 'nobody';
    const moveUp = turnAhead(state, c) ? ", or by moving up their turn with the GM's permission" : '';
    return no(
      'turn/not-yours',
      `It is ${now}'s turn. ${c.name} can act out of turn only by interrupting after waiting${moveUp}.`,
    );
  }
  if (mode === 'interrupt') {
    // 002: "A character may only interrupt another character's action if she has waited and after that
    // character has made the skill roll and spent any points but before the Game Master declares the result."
    if (!c.cs.waiting) return no('interrupt/not-waiting', notWaiting(state, c, 'may interrupt'));
    const open = state.rs.openRoll;
    if (!open || open.combatant === c.id) {
      return no(
        'interrupt/no-roll',
        `There is no roll to interrupt: ${c.name} may interrupt after another character's skill roll for an action and before the GM declares its result (a roll the GM calls for outside an action, such as willpower against the scene's emotional effects, is not an action).`,
      );
    }
    if (flags.wait)
      return no(
        'interrupt/waiting',
        'Waiting is not something to interrupt with; choose the action to take.',
      );
  }
  if (mode === 'move-up') {
    if (!turnAhead(state, c)) {
      return no(
        'move-up/turn-passed',
        `${c.name} has no turn left this round, so there is none to move up; only a character who waited can act out of turn now.`,
      );
    }
  }
  if (flags.perRound !== null) {
    const uses = state.rs.happened.filter(
      (h) => h.round === state.round && h.combatant === c.id && h.action === action.id,
    ).length;
    if (uses >= flags.perRound) {
      return no(
        'action/per-round',
        `${action.name} can be used ${flags.perRound === 1 ? 'once' : `${flags.perRound} times`} a round (the rules: only equipment suited for quick multiple actions is used several times, up to its limit), and ${c.name} has used it ${uses === 1 ? 'once' : `${uses} times`} this round; choose another action, or use it again next round.`,
      );
    }
  }
  if (flags.free) return OK;
  if (declared === null) {
    return no(
      'actions/undeclared',
      `Declare how many actions ${c.name} takes this round first (Declare actions); the number sets the multi-action penalty.`,
    );
  }
  if (c.cs.used >= declared) {
    return no(
      'actions/exhausted',
      `${c.name} declared ${declared} action${declared === 1 ? '' : 's'} this round and has used ${c.cs.used}; no actions may be added once the multi-action penalty is figured. ${c.name} acts again next round (or takes a free action).`,
    );
  }
  return OK;
}

export interface RollRequest {
  skill?: string | undefined;
  code?: string | undefined;
  kind?: RollKind | undefined;
  suggested?: string[];
  purpose: string;
  declared: number | null;
}

/**
 * A skill, attribute, damage or damage-resistance roll: the effective code after the multi-action
 * penalty (skills and attributes only), refused at 0D, rolled with the Wild Die. Null when there is
 * nothing to roll (no suggested skill on the sheet).
 */
export function skillRoll(ctx: Ctx, c: C, req: RollRequest): AnyEvent[] | Rejection | null {
  let name: string;
  let code: string;
  let kind: RollKind;
  if (req.code !== undefined) {
    const t = req.skill ? traitOf(c, req.skill) : undefined;
    name = req.skill ?? 'roll';
    code = req.code;
    kind = req.kind ?? t?.kind ?? 'skill';
  } else if (req.skill !== undefined) {
    const t = traitOf(c, req.skill);
    if (!t) {
      const known = [
        ...Object.keys(c.stats.skills),
        'Perception',
        'Reflexes',
        ...Object.keys(c.stats.attributes),
      ];
      return reject(
        'skill/unknown',
        `${c.name} has no skill or attribute "${req.skill}" (has: ${known.join(', ')}); enter the Die code to roll, e.g. the governing attribute's for an untrained skill.`,
      );
    }
    name = t.name;
    code = t.code;
    kind = req.kind ?? t.kind;
  } else {
    let t: ReturnType<typeof traitOf>;
    for (const s of req.suggested ?? []) {
      t = traitOf(c, s);
      if (t) break;
    }
    if (!t) return null;
    name = t.name;
    code = t.code;
    kind = req.kind ?? t.kind;
  }
  const penalty = penalized(kind) ? penaltyFor(req.declared, c.stats.actionAllotment) : 0;
  const e = effective(code, penalty);
  if (!e.usable) {
    // Declared actions cannot change once the penalty is figured: "declare fewer" only before declaring.
    const fix =
      c.cs.declared === null
        ? 'Declare fewer actions or choose another skill.'
        : `${c.name}'s ${c.cs.declared} declared actions are fixed for this round (no change once the multi-action penalty is figured): choose another skill or action.`;
    return reject(
      'skill/zero',
      penalty > 0
        ? `${c.name}'s ${name} is ${e.code}; at −${penalty}D it is ${e.effective}, and a skill or attribute reduced to zero cannot be relied on. ${fix}`
        : `${c.name}'s ${name} is ${e.code}; a skill or attribute at zero dice cannot be relied on.`,
      { skill: name, code: e.code, effective: e.effective },
    );
  }
  const roll = ctx.roll(e.effective, undefined, rollOptions(ctx.state.options.complication));
  const texts = purposeTexts(e, penalty, name, req.purpose);
  const events: AnyEvent[] = [
    {
      type: 'dice/rolled',
      combatant: c.id,
      purpose: texts.rolled,
      roll: roll,
      skill: name,
      kind,
      code: e.code,
      penalty,
      effective: e.effective,
    },
  ];
  if (penalized(kind)) events.push({ type: 'opend6/roll-open', combatant: c.id, purpose: texts.open });
  return events;
}

/** A roll's purpose as its dice event says it, and as its open roll does. */
interface PurposeTexts {
  rolled: string;
  open: string;
}

/**
 * The texts written before, by effective code (one object per code and penalty, see `effective`), trait
 * name and purpose: a fight rolls the same few skills for the same few actions all along.
 */
const PURPOSE_TEXTS = new WeakMap<
  Readonly<EffectiveCode>,
  Map<string, Map<string, Readonly<PurposeTexts>>>
>();

/** "Slash: melee combat 5D −2D = 3D" and "Slash (melee combat)", written once per code, name and purpose. */
export function purposeTexts(
  e: Readonly<EffectiveCode>,
  penalty: number,
  name: string,
  purpose: string,
): Readonly<PurposeTexts> {
  let byName = PURPOSE_TEXTS.get(e);
  if (byName === undefined) {
    byName = new Map();
    PURPOSE_TEXTS.set(e, byName);
  }
  let byPurpose = byName.get(name);
  if (byPurpose === undefined) {
    if (byName.size >= 1000) byName.clear();
    byPurpose = new Map();
    byName.set(name, byPurpose);
  }
  let texts = byPurpose.get(purpose);
  if (texts === undefined) {
    const shown = penalty > 0 ? `${name} ${e.code} −${penalty}D = ${e.effective}` : `${name} ${e.code}`;
    texts = Object.freeze({ rolled: `${purpose}: ${shown}`, open: `${purpose} (${name})` });
    if (byPurpose.size >= 1000) byPurpose.clear();
    byPurpose.set(purpose, texts);
  }
  return texts;
}
