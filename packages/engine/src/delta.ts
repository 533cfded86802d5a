import type { Json } from './json.js';
import type { EngineEvent } from './types.js';
import type { EncounterView } from './view.js';

/**
 * What changed from one JSON value to the next (docs/design.md, "Deltas"). An operation is one of:
 *
 * - `[value]`: the value is now `value` (a key added, or a value replaced whole);
 * - `[]`: the key is gone (only as the operation of an object's key);
 * - `{key: operation, …}`: an object whose listed keys changed; the others are as they were, in their
 *   order, and added keys come after them;
 * - `[0, pieces]`: an array rebuilt from the previous one, piece by piece from its start: a number `n > 0`
 *   keeps the next `n` elements, `-n` drops them, an array `[v, …]` inserts those values, a string
 *   inserts the value it refers to (below), an object `{…}` changes the next element by that object's
 *   operations; elements after the last piece are kept;
 * - `[0, "i.key"]`: the value is the one the change's `i`th event (counted from 0 among the events the
 *   viewer gets) holds under `key`; `"i.key.j"`, the `j`th element of the array it holds there. A
 *   change's events are what made its view, and the view often holds what they carry (a scheduled entry,
 *   a round's turns, the clock's new instant): those are sent once, in the event.
 *
 * Whatever is smaller is chosen: an array or object whose changes would take more bytes than it is
 * written whole is replaced whole.
 */
export type DeltaOp = [] | [Json] | [0, DeltaPiece[]] | [0, string] | ObjectDelta;
/** One piece of an array's rebuild (see `DeltaOp`). */
export type DeltaPiece = number | Json[] | string | ObjectDelta;

/** Where the values a delta may refer to are: each object or array by the `"i.key"` (`"i.key.j"`) that names it. */
export type DeltaRefs = ReadonlyMap<object, string>;

/**
 * The values of the events a viewer gets with a change that a delta may refer to (see `DeltaOp`): each
 * non-empty object or array an event holds directly under a key, and each non-empty object or array
 * element of an array it holds there (a round's turns scheduled at once), by reference.
 */
export function eventRefs(events: readonly EngineEvent[]): Map<object, string> {
  const refs = new Map<object, string>();
  const add = (v: unknown, ref: string): void => {
    if (typeof v !== 'object' || v === null || refs.has(v)) return;
    if (Array.isArray(v) ? v.length > 0 : Object.keys(v).length > 0) refs.set(v, ref);
  };
  events.forEach((event, i) => {
    for (const key of Object.keys(event)) {
      const v = (event as Obj)[key];
      add(v, `${i}.${key}`);
      if (Array.isArray(v)) for (const [j, element] of v.entries()) add(element, `${i}.${key}.${j}`);
    }
  });
  return refs;
}

/** The value an `"i.key"` or `"i.key.j"` reference names among a change's events; a mismatch when there is none. */
export function resolveIn(events: readonly EngineEvent[]): (ref: string) => unknown {
  return (ref) => {
    const [i, key, j, ...more] = ref.split('.');
    const event = events[Number(i)] as Obj | undefined;
    if (!i || !key || more.length > 0 || !event || !Object.hasOwn(event, key)) {
      return mismatch(`no event value "${ref}"`);
    }
    const v = event[key];
    if (j === undefined) return v;
    if (!Array.isArray(v) || !/^\d+$/.test(j) || Number(j) >= v.length)
      return mismatch(`no event value "${ref}"`);
    return v[Number(j)];
  };
}
export interface ObjectDelta {
  [key: string]: DeltaOp;
}
/** How a viewer's view changed: `{}` when nothing did. */
export type ViewDelta = DeltaOp;

/** A delta that does not fit the view it is applied to (the viewer holds another view than the sender's). */
export class DeltaMismatchError extends Error {}

type Obj = Record<string, unknown>;

function isObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A key that JSON writes: own, with a value other than undefined. */
function present(o: Obj, k: string): boolean {
  return o[k] !== undefined && Object.hasOwn(o, k);
}

/** Sets an own key, `__proto__` included (never through its setter). */
function put(o: Obj, k: string, v: unknown): void {
  if (k === '__proto__')
    Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}

/**
 * The delta that turns `before` into `after`, two views of one viewer; `{}` when they are the same. With
 * `refs` (see `eventRefs`), a value of `after` that is one of the change's event values is sent as a
 * reference to it.
 */
export function diffView(before: EncounterView, after: EncounterView, refs?: DeltaRefs): ViewDelta {
  return diffValue(before, after, refs) ?? {};
}

/**
 * `diffView` of `before` with its `seq` taken to be `after`'s: what changed but the seq. (The views of a
 * change always differ in it; a change message carries it on its own.)
 */
export function diffViewButSeq(before: EncounterView, after: EncounterView, refs?: DeltaRefs): ViewDelta {
  if (before === after) return {};
  const a: Obj = before;
  const b: Obj = after;
  // Keys the same (as they nearly always are): the seq is skipped, with no copy of the view made.
  const keys = keysOf(b);
  if (keysMatch(a, keys)) return diffKeys(a, b, keys, refs, 'seq') ?? {};
  return diffView(before.seq === after.seq ? before : { ...before, seq: after.seq }, after, refs);
}

/**
 * The view after `delta`. Pure: `view` is not changed, and every part the delta leaves alone is shared.
 * `resolve` gives the value of a reference to the change's events (see `resolveIn`).
 */
export function applyDelta(view: EncounterView, delta: ViewDelta, resolve?: Resolve): EncounterView {
  return applyOp(view, delta, resolve) as EncounterView;
}

/** Looks up what a delta's reference names (see `resolveIn`). */
type Resolve = (ref: string) => unknown;

/** A reference to an event value for `v`, when the diff may refer to one. */
function refTo(v: unknown, refs: DeltaRefs | undefined): string | undefined {
  return refs !== undefined && typeof v === 'object' && v !== null ? refs.get(v) : undefined;
}

function resolved(ref: string, resolve: Resolve | undefined): unknown {
  return resolve ? resolve(ref) : mismatch(`a reference "${ref}" without the change's events`);
}

/**
 * Whether two values are the same JSON, keys in the same order (a key held without a value counts as
 * absent, as JSON has it).
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  if (!isObject(a) || !isObject(b)) return false;
  const bKeys = keysOf(b);
  if (!keysMatch(a, bKeys)) return false;
  for (const k of bKeys) if (!sameJson(a[k], b[k])) return false;
  return true;
}

function diffValue(a: unknown, b: unknown, refs: DeltaRefs | undefined): DeltaOp | undefined {
  if (a === b) return undefined;
  const ref = refTo(b, refs);
  if (ref !== undefined) return [0, ref];
  if (isObject(a) && isObject(b)) return diffObject(a, b, refs);
  if (Array.isArray(a) && Array.isArray(b)) return diffArray(a, b, refs);
  return [b as Json];
}

/** Keys JSON writes, in order. */
function keysOf(o: Obj): string[] {
  const keys = Object.keys(o);
  for (const k of keys) if (o[k] === undefined) return keys.filter((key) => o[key] !== undefined);
  return keys;
}

/**
 * Whether `a`'s keys that JSON writes are `keys`, in that order (walked without making a list of them:
 * a JSON value's object has no keys but its own).
 */
function keysMatch(a: Obj, keys: readonly string[]): boolean {
  let i = 0;
  for (const k in a) {
    if (a[k] === undefined) continue;
    if (keys[i] !== k) return false;
    i++;
  }
  return i === keys.length;
}

/** The operations of the values of `keys` (both objects' keys) that differ, `skip` left out. */
function diffKeys(
  a: Obj,
  b: Obj,
  keys: readonly string[],
  refs: DeltaRefs | undefined,
  skip?: string,
): DeltaOp | undefined {
  const changes: Array<[string, DeltaOp]> = [];
  for (const k of keys) {
    const before = a[k];
    const after = b[k];
    if (before === after || k === skip) continue;
    const op = diffValue(before, after, refs);
    if (op !== undefined) changes.push([k, op]);
  }
  return changes.length > 0 ? (Object.fromEntries(changes) as ObjectDelta) : undefined;
}

function diffObject(a: Obj, b: Obj, refs: DeltaRefs | undefined): DeltaOp | undefined {
  const bKeys = keysOf(b);
  // Most objects keep their keys from one view to the next (a combatant, the view itself): only the
  // values that are not the same are compared, with no key looked up twice.
  if (keysMatch(a, bKeys)) return diffKeys(a, b, bKeys, refs);
  const aKeys = keysOf(a);
  // Applying keeps the kept keys in their order and adds new ones after them: a `b` in another order
  // (a key removed and added back earlier on) is sent whole, so the receiver's copy is the same JSON.
  let j = 0;
  for (const k of aKeys) {
    if (!present(b, k)) continue;
    if (bKeys[j] !== k) return [b as Json];
    j++;
  }
  for (; j < bKeys.length; j++) if (present(a, bKeys[j]!)) return [b as Json];
  // Built as pairs: Object.fromEntries makes every key its own, `__proto__` too, and is faster than
  // adding keys one by one to objects of ever different shapes.
  const changes: Array<[string, DeltaOp]> = [];
  for (const k of aKeys) if (!present(b, k)) changes.push([k, []]);
  for (const k of bKeys) {
    const ref = present(a, k) ? undefined : refTo(b[k], refs);
    const op = present(a, k)
      ? diffValue(a[k], b[k], refs)
      : ref !== undefined
        ? ([0, ref] as [0, string])
        : ([b[k]] as [Json]);
    if (op !== undefined) changes.push([k, op]);
  }
  return changes.length > 0 ? (Object.fromEntries(changes) as ObjectDelta) : undefined;
}

/**
 * The identity of an array element for matching: a number, string, boolean or null itself, an object's
 * `id` when it has one, else its JSON. (A match only pairs elements to compare: whatever they are, the
 * pair's own diff is exact.)
 */
function identity(v: unknown): unknown {
  if (typeof v !== 'object' || v === null) return v;
  if (isObject(v) && typeof v.id === 'string') return `\u0000#${v.id}`;
  return `\u0000${JSON.stringify(v)}`;
}

const KEEP = 0;
const DROP = 1;
const INSERT = 2;

/** The most edits an array's rebuild looks for before it sends the array whole. */
const MAX_EDITS = 64;

/**
 * A shortest edit script from `a` to `b` (Myers' O(ND) diff): KEEP, DROP (an element of `a`) or INSERT
 * (one of `b`), in order; null when it takes more than MAX_EDITS drops and inserts.
 */
function editScript(a: readonly unknown[], b: readonly unknown[]): number[] | null {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, MAX_EDITS);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!)
          ? v[offset + k + 1]!
          : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, d, n, m, offset);
    }
  }
  return null;
}

function backtrack(trace: Int32Array[], depth: number, n: number, m: number, offset: number): number[] {
  const script: number[] = [];
  let x = n;
  let y = m;
  for (let d = depth; d > 0; d--) {
    const v = trace[d]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? k + 1 : k - 1;
    const prevX = v[offset + prevK]!;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      script.push(KEEP);
      x--;
      y--;
    }
    script.push(x === prevX ? INSERT : DROP);
    x = prevX;
    y = prevY;
  }
  while (x > 0 && y > 0) {
    script.push(KEEP);
    x--;
    y--;
  }
  return script.reverse();
}

/**
 * A list that lost a few elements at its head and gained some at its tail, the rest the same objects
 * (the undo history at its depth, a log kept to a length): found in one pass, without an edit script.
 */
function windowMoved(a: readonly unknown[], b: readonly unknown[]): DeltaOp | undefined {
  for (let drop = 1; drop <= 4 && drop < a.length; drop++) {
    if (a[drop] !== b[0]) continue;
    const kept = a.length - drop;
    if (b.length < kept) return undefined;
    for (let i = 1; i < kept; i++) if (a[drop + i] !== b[i]) return undefined;
    const pieces: DeltaPiece[] = [-drop];
    if (b.length > kept) pieces.push(kept, b.slice(kept) as Json[]);
    return [0, pieces];
  }
  return undefined;
}

function diffArray(
  a: readonly unknown[],
  b: readonly unknown[],
  refs: DeltaRefs | undefined,
): DeltaOp | undefined {
  // The common head and tail are matched by reference first (views share what did not change).
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail++;
  if (head === a.length && head === b.length) return undefined;
  const moved = head === 0 && tail === 0 ? windowMoved(a, b) : undefined;
  if (moved) return moved;
  const aMid = a.slice(head, a.length - tail);
  const bMid = b.slice(head, b.length - tail);
  // Only added or only dropped elements (a list grown at its end, an entry gone from its head): that is
  // the whole script, with no search.
  const script =
    aMid.length === 0 && bMid.length <= MAX_EDITS
      ? new Array<number>(bMid.length).fill(INSERT)
      : bMid.length === 0 && aMid.length <= MAX_EDITS
        ? new Array<number>(aMid.length).fill(DROP)
        : editScript(aMid.map(identity), bMid.map(identity));
  if (!script) return [b as Json];
  const pieces: DeltaPiece[] = [];
  let keep = head;
  let drop = 0;
  let insert: Json[] = [];
  const flush = () => {
    if (keep > 0) pieces.push(keep);
    if (drop > 0) pieces.push(-drop);
    if (insert.length > 0) pieces.push(insert);
    keep = 0;
    drop = 0;
    insert = [];
  };
  // A value inserted: by reference when it is one of the change's event values.
  const add = (v: unknown) => {
    const ref = refTo(v, refs);
    if (ref === undefined) insert.push(v as Json);
    else {
      flush();
      pieces.push(ref);
    }
  };
  let i = 0;
  let j = 0;
  for (const step of script) {
    if (step === DROP) {
      if (keep > 0) flush();
      drop++;
      i++;
    } else if (step === INSERT) {
      if (keep > 0) flush();
      add(bMid[j]);
      j++;
    } else {
      const op = diffValue(aMid[i], bMid[j], refs);
      if (op === undefined) {
        if (drop > 0 || insert.length > 0) flush();
        keep++;
      } else if (isObject(op)) {
        flush();
        pieces.push(op);
      } else {
        // Same identity, but replaced whole (another kind of value, or its keys in another order).
        if (keep > 0) flush();
        drop++;
        add(bMid[j]);
      }
      i++;
      j++;
    }
  }
  // What follows is kept: only drops and inserts still pending are written.
  keep = 0;
  flush();
  if (pieces.length === 0) return undefined;
  const edit: DeltaOp = [0, pieces];
  const editLength = JSON.stringify(edit).length;
  // An array of k elements is at least 2k+1 characters long: a shorter edit needs no comparison.
  if (editLength <= 2 * b.length + 1) return edit;
  return editLength < JSON.stringify(b).length + 2 ? edit : [b as Json];
}

function mismatch(what: string): never {
  throw new DeltaMismatchError(`The change does not fit the view held: ${what}.`);
}

function applyOp(value: unknown, op: unknown, resolve: Resolve | undefined): unknown {
  if (Array.isArray(op)) {
    if (op.length === 1) return op[0];
    if (op.length === 2 && op[0] === 0 && typeof op[1] === 'string') return resolved(op[1], resolve);
    if (op.length === 2 && op[0] === 0 && Array.isArray(op[1])) {
      if (!Array.isArray(value)) mismatch('an array change for something that is not a list');
      return applyArray(value, op[1], resolve);
    }
    return mismatch('an unknown operation');
  }
  if (isObject(op)) {
    if (!isObject(value)) mismatch('an object change for something that is not an object');
    return applyObject(value, op, resolve);
  }
  return mismatch('an unknown operation');
}

function applyObject(o: Obj, delta: Obj, resolve: Resolve | undefined): Obj {
  const out: Obj = { ...o };
  for (const k of Object.keys(delta)) {
    const op = delta[k];
    if (Array.isArray(op) && op.length === 0) {
      if (!present(out, k)) mismatch(`"${k}" removed but not there`);
      delete out[k];
    } else if (present(out, k)) {
      put(out, k, applyOp(out[k], op, resolve));
    } else if (Array.isArray(op) && (op.length === 1 || (op[0] === 0 && typeof op[1] === 'string'))) {
      // Deleted first, so a key held with no value (undefined) comes after the others, as JSON has it.
      delete out[k];
      put(out, k, applyOp(undefined, op, resolve));
    } else {
      mismatch(`"${k}" changed but not there`);
    }
  }
  return out;
}

function applyArray(
  a: readonly unknown[],
  pieces: readonly unknown[],
  resolve: Resolve | undefined,
): unknown[] {
  const out: unknown[] = [];
  let i = 0;
  for (const piece of pieces) {
    if (typeof piece === 'number') {
      if (!Number.isInteger(piece) || piece === 0 || i + Math.abs(piece) > a.length) {
        mismatch('a list shorter than the change');
      }
      if (piece > 0) for (let n = 0; n < piece; n++) out.push(a[i + n]);
      i += Math.abs(piece);
    } else if (Array.isArray(piece)) {
      for (const v of piece) out.push(v);
    } else if (typeof piece === 'string') {
      out.push(resolved(piece, resolve));
    } else if (isObject(piece)) {
      if (i >= a.length) mismatch('a list shorter than the change');
      const element = a[i];
      if (!isObject(element)) mismatch('an object change for a list element that is not an object');
      out.push(applyObject(element, piece, resolve));
      i++;
    } else {
      mismatch('an unknown piece of a list change');
    }
  }
  for (; i < a.length; i++) out.push(a[i]);
  return out;
}
