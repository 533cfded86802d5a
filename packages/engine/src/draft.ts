/**
 * Structural sharing inside one fold. Folding a command's events one by one used to copy the whole
 * combatants record for every event that touched one combatant, so a command of n events at n combatants
 * cost n² (a `start` at 200 combatants: 40,000 entries copied). Inside `drafting`, the first change copies
 * the record as before and notes the copy as the fold's own; later changes write into that copy, which
 * nobody outside the fold has seen yet. Nothing the fold was given is ever written to, so it stays pure
 * from the outside (under a caller's `Draft`, what earlier folds under it made is written, see there); `sealDraft` hands the copies
 * over (a state kept as a checkpoint must never change again) and the next change copies afresh. The
 * state object itself is owned the same way: the first change in a fold copies it, later ones set its
 * fields (`ownState`), so a fold of n events makes one state object, not n.
 *
 * Outside `drafting` every change copies, exactly as the plain fold does.
 *
 * What this asks of an `evolve`: read a combatant from the state it was given before changing that state,
 * not after (inside a fold, the given state and the changed one may share the record). A combatant object
 * is written to only by `writeCombatant` and `writeCs`, and only when this fold copied it itself;
 * otherwise a change puts a new one in the record.
 */

/**
 * The running fold: the objects it copied, writable in place until it ends or seals them, and the one
 * state object it made (a fold writes one state after another, so one slot is enough: a state object
 * it did not make — a ruleset's own `{ ...state }` — is copied into that slot and the last one is
 * forgotten, and the set does not fill with the states of a long trial).
 */
export interface Fold {
  readonly owned: Set<object>;
  state?: object | null;
}

let fold: Fold | null = null;

/**
 * The combatants record that the fold was last found to hold (or made), asked first: a fold writes the
 * same record event after event, and comparing it is cheaper than a lookup in the set. Forgotten
 * whenever the fold changes or is sealed.
 */
let ownedRecord: object | null = null;
/** Likewise the combatant, its `cs` and the `rs` last written in place: the same ones, event after event. */
let ownedCombatant: object | null = null;
let ownedCs: object | null = null;
let ownedRs: object | null = null;

function forgetOwned(): void {
  ownedRecord = null;
  ownedCombatant = null;
  ownedCs = null;
  ownedRs = null;
}

/** What folding costs, counted (tests prove a command's work linear in the encounter's size by it). */
export const foldWork = {
  /** Combatant entries copied into a new combatants record. */
  entriesCopied: 0,
};

/**
 * A draft that lasts across several folds, for a caller that alone holds every state those folds return
 * and keeps none but the latest (a simulator's trial): what one fold copied, the next writes in place, so
 * the combatants record and a growing history are copied once per trial instead of once per command.
 * `spoiled`: a fold under it stopped part-way (a refusal after events were applied, or an error), so the
 * latest state may already hold some of its changes and must not be used again. `state`: the state
 * object its folds made last, which the next one writes in place (see `ownState`).
 */
export interface Draft {
  readonly owned: Set<object>;
  spoiled: boolean;
  state?: object | null;
}

/** A fresh draft for a run of folds whose states nobody else holds (see `Draft`). */
export function newDraft(): Draft {
  return { owned: new Set(), spoiled: false, state: null };
}

/**
 * Runs a fold whose intermediate states nobody else keeps: changes after the first write in place. With
 * `draft`, the fold also writes in place into what earlier folds under that draft made.
 */
export function drafting<T>(run: () => T, draft?: Draft): T {
  const outer = enterDraft(draft);
  try {
    return run();
  } finally {
    leaveDraft(outer);
  }
}

/**
 * `drafting` without a closure, for the engine's own hot loop: begins a fold (under `draft` when given)
 * and returns what `leaveDraft` must restore when it ends, in a `finally`.
 */
export function enterDraft(draft?: Draft): Fold | null {
  const outer = fold;
  fold = draft ?? { owned: new Set(), state: null };
  forgetOwned();
  return outer;
}

/** Ends a fold begun by `enterDraft`, given what it returned. */
export function leaveDraft(outer: Fold | null): void {
  fold = outer;
  forgetOwned();
}

/** Ends in-place writes to everything copied so far (the current state is about to be kept). */
export function sealDraft(): void {
  if (fold) {
    fold.owned.clear();
    fold.state = null;
  }
  forgetOwned();
}

/**
 * `state` with its combatants record changed by `change`: in place when this fold made the record, else
 * on a copy (which a running fold then owns); the state object likewise (`ownState`).
 */
export function withCombatants<S extends { combatants: Record<string, unknown> }>(
  state: S,
  change: (combatants: S['combatants']) => void,
): S {
  const combatants = ownRecord(state.combatants);
  change(combatants);
  const s = ownState(state);
  s.combatants = combatants;
  return s;
}

/**
 * The state object to set top-level fields of (`s.now = …`): `state` itself when this fold (or the
 * caller's draft) made it, else a copy that a running fold then owns. Outside a fold, always a copy, so
 * the state given is never written to. Only whole fields are set on it: what a field holds (an agenda,
 * a combatant) is replaced, never changed, unless this fold owns that too.
 */
export function ownState<S extends object>(state: S): S {
  const f = fold;
  if (f === null) return { ...state };
  if (state === f.state) return state;
  const copy = { ...state };
  f.state = copy;
  return copy;
}

/** Whether `x` (a state, a record) is one this draft's folds made, and its holder may still write into. */
export function draftOwns(draft: Draft, x: object): boolean {
  return draft.state === x || draft.owned.has(x);
}

/** The combatants record to write into: itself when this fold made it, else a copy it then owns. */
function ownRecord<R extends Record<string, unknown>>(record: R): R {
  if (record === ownedRecord) return record;
  const owned = fold?.owned;
  if (owned?.has(record)) {
    ownedRecord = record;
    return record;
  }
  const copy = { ...record };
  foldWork.entriesCopied += Object.keys(copy).length;
  if (owned) {
    owned.add(copy);
    ownedRecord = copy;
  }
  return copy;
}

/** `state` with combatant `id` replaced by what `f` makes of it; the same state when there is none. */
export function updateCombatant<S extends { combatants: Record<string, unknown> }>(
  state: S,
  id: string,
  f: (c: S['combatants'][string]) => S['combatants'][string],
): S {
  const c = Object.hasOwn(state.combatants, id) ? state.combatants[id] : undefined;
  if (c === undefined) return state;
  return withCombatants(state, (all) => {
    (all as Record<string, unknown>)[id] = f(c as S['combatants'][string]);
  });
}

/**
 * `list` with `items` added at its end: in place when this fold made the array (an earlier addition in
 * the same fold), else on a copy that a running fold then owns — so a history that grows by an entry per
 * event is copied once per command, not once per event. The same array when there is nothing to add.
 */
export function appendTo<T>(list: readonly T[], items: readonly T[]): T[] {
  if (items.length === 0) return list as T[];
  const owned = fold?.owned;
  if (owned?.has(list)) {
    for (const item of items) (list as T[]).push(item);
    return list as T[];
  }
  const copy = list.concat(items);
  owned?.add(copy);
  return copy;
}

/** `c` to write into: itself when this fold made it, else a copy that a running fold then owns. */
function own<T extends object>(c: T): T {
  const owned = fold?.owned;
  if (owned?.has(c)) return c;
  const copy = { ...c };
  owned?.add(copy);
  return copy;
}

/** `own` for a combatant, the one last owned compared first. */
function ownCombatant<T extends object>(c: T): T {
  if (c === ownedCombatant) return c;
  const w = own(c);
  if (fold) ownedCombatant = w;
  return w;
}

/** `own` for a combatant's `cs`, the one last owned compared first. */
function ownCs<T extends object>(cs: T): T {
  if (cs === ownedCs) return cs;
  const w = own(cs);
  if (fold) ownedCs = w;
  return w;
}

/** `own` for the round state, the one last owned compared first. */
function ownRs<T extends object>(rs: T): T {
  if (rs === ownedRs) return rs;
  const w = own(rs);
  if (fold) ownedRs = w;
  return w;
}

/**
 * `state` with combatant `id` changed by `write`, which writes the combatant's fields directly: into the
 * combatant itself when this fold (or the caller's draft) copied it already, else into a copy that a
 * running fold then owns — so the events of a command (of a trial, under a simulation's draft) that change
 * one combatant copy it once, and no object is made per change. Outside a fold, always a copy: the state
 * given is never written to. The same state when there is no such combatant. `write` reads what it
 * needs from the combatant it is given (the one being written) or from the event.
 */
export function writeCombatant<S extends { combatants: Record<string, object> }>(
  state: S,
  id: string,
  write: (c: S['combatants'][string]) => void,
): S {
  const c = Object.hasOwn(state.combatants, id) ? state.combatants[id] : undefined;
  if (c === undefined) return state;
  const all = ownRecord(state.combatants);
  const w = ownCombatant(c as S['combatants'][string]);
  write(w);
  (all as Record<string, object>)[id] = w;
  const s = ownState(state);
  s.combatants = all;
  return s;
}

/**
 * `writeCombatant` for a combatant's ruleset state (`cs`, a plain object): `write` writes its fields,
 * into the `cs` itself when this fold copied it already, else into a copy. See `writeCombatant`.
 */
export function writeCs<S extends { combatants: Record<string, { cs: object }> }>(
  state: S,
  id: string,
  write: (cs: S['combatants'][string]['cs'], c: S['combatants'][string]) => void,
): S {
  const c = Object.hasOwn(state.combatants, id) ? state.combatants[id] : undefined;
  if (c === undefined) return state;
  const all = ownRecord(state.combatants);
  const w = ownCombatant(c as S['combatants'][string]);
  const cs = ownCs(w.cs as S['combatants'][string]['cs']);
  (w as { cs: object }).cs = cs;
  write(cs, w);
  (all as Record<string, object>)[id] = w;
  const s = ownState(state);
  s.combatants = all;
  return s;
}

/**
 * `state` with its ruleset state (`rs`, a plain object) changed by `write`, which writes its fields: into
 * the `rs` itself when this fold copied it already, else into a copy that a running fold then owns (see
 * `writeCombatant`); the state object likewise (`ownState`).
 */
export function writeRs<S extends { rs: object }>(state: S, write: (rs: S['rs']) => void): S {
  const rs = ownRs(state.rs);
  write(rs);
  const s = ownState(state);
  s.rs = rs;
  return s;
}
