import {
  type ChangeMessage,
  compactEntries,
  deltaOfView,
  type EncounterView,
  type LogEntry,
  sameJson,
  seenAlikeByAllButGm,
  type ViewDelta,
  type Viewer,
  view,
  viewLog,
} from '@roundkeeper/engine';
import { type Live, type SharedMessage, viewKey } from './live-encounter.js';
import { type RawFields, rawMessage } from './messages.js';

// Broadcast: each change, as every kind of viewer watching sees it, built once per distinct message.

/** One `change` message, built and serialized once for every kind of viewer that gets the same bytes. */
interface Built extends SharedMessage {
  /** Built for the GM: the only kind whose view holds the dice and the undo history. */
  gm: boolean;
  /** The view the change starts from (undefined: nobody of its kind held one). */
  base: EncounterView | undefined;
  view: EncounterView;
  entries: LogEntry[];
  /** The message's fields but its view, as JSON: its seqs and events (see `changeHead`). */
  head: ChangeHead;
  /** The delta the message carries, and its JSON (none: it carries the whole view). */
  delta?: { value: ViewDelta; json: string };
  text: string;
}

/**
 * No view is shorter than this as JSON (every field, each with its shortest value): a delta shorter than
 * it is smaller than any state, and only a longer one is compared with the state it stands for.
 */
const SHORTEST_VIEW = JSON.stringify({
  schema: 1,
  id: '',
  name: '',
  ruleset: '',
  rulesetVersion: 0,
  options: {},
  status: 'setup',
  round: 0,
  now: null,
  current: null,
  combatants: {},
  roster: [],
  agenda: [],
  effects: [],
  customActions: [],
  dice: null,
  gmNotes: [],
  history: { undoable: [], redoable: [], lastGroup: 0 },
  seq: 0,
  rs: null,
} satisfies EncounterView).length;

/** A change message's fields but its view, as JSON. */
type ChangeHead = Omit<RawFields<ChangeMessage>, 'delta' | 'state'>;

/** A change message's fields up to its view: its seqs and the viewer's events, compact when they fit. */
function changeHead(seen: readonly LogEntry[], from: number, seq: number): ChangeHead {
  const compact = compactEntries(seen, from, seq);
  if (!compact) return { seq: String(seq), from: String(from), entries: JSON.stringify(seen) };
  const head: ChangeHead = { seq: String(seq), from: String(from) };
  if (compact.group !== undefined) head.group = String(compact.group);
  if (compact.time !== undefined) head.time = JSON.stringify(compact.time);
  if (compact.events !== undefined) head.events = JSON.stringify(compact.events);
  return head;
}

/**
 * What a change carries of the view: the delta's JSON, or the whole view's when that is shorter (or there
 * is no delta). The view is written only when the delta is long enough to be compared with it.
 */
export function changeBody(
  delta: ViewDelta | undefined,
  next: EncounterView,
): { delta: string } | { state: string } {
  if (delta === undefined) return { state: JSON.stringify(next) };
  const json = JSON.stringify(delta);
  if (json.length < SHORTEST_VIEW) return { delta: json };
  const state = JSON.stringify(next);
  return json.length <= state.length ? { delta: json } : { state };
}

/**
 * Sends each subscriber the change as it sees it: its events and the delta from the view it holds (at
 * `from`), or the whole view when that is smaller. Each distinct message is built and serialized once
 * and shared by every viewer who would get the same bytes: all of one kind, and the kinds whose view,
 * events and previous view are the same (the table and every player when nothing is hidden or secret).
 */
export function broadcast(live: Live, entries: LogEntry[], from: number): void {
  const byKey = new Map<string, Built>();
  const distinct: Built[] = [];
  // When the table and every player see this change alike, the first of them's message is every
  // other's who held the same view: their views and events are not made again only to be compared.
  const alike = seenAlikeByAllButGm(live.log.state, entries, live.ruleset, live.log.everHidden);
  let first: { base: EncounterView; message: Built; key: string } | undefined;
  for (const sub of live.subscribers) {
    const key = viewKey(sub.viewer);
    let message = byKey.get(key);
    if (!message) {
      const held = alike && sub.viewer.role !== 'gm' ? live.views.get(key) : undefined;
      const base = held?.seq === from ? held.view : undefined;
      if (first && base === first.base) {
        message = first.message;
        live.views.set(key, live.views.get(first.key)!);
      } else {
        message = change(live, sub.viewer, key, entries, from, distinct);
        if (base && !first) first = { base, message, key };
      }
      byKey.set(key, message);
    }
    sub.send(message.text, message);
  }
  // The views of kinds nobody watches any more are not kept (a kind that comes back gets a hello).
  for (const key of live.views.keys()) if (!byKey.has(key)) live.views.delete(key);
}

/** The change for one kind of viewer: one already built if it is the same, else a new one. */
function change(
  live: Live,
  viewer: Viewer,
  key: string,
  entries: LogEntry[],
  from: number,
  distinct: Built[],
): Built {
  const seq = live.record.seq;
  const gm = viewer.role === 'gm';
  // The GM's message is never another kind's: the GM's view holds the dice state and the undo history,
  // which every change moves (its group), and no other view does. Only messages built for the same
  // side of that line are compared.
  const held = live.views.get(key);
  // Every viewer of a kind holds its view at the seq before this change: hello and every change are
  // sent in the encounter's queue. A kind whose view is older (nobody of it watched) gets it whole.
  const base = held?.seq === from ? held.view : undefined;
  const next = view(live.log.state, viewer, live.ruleset, live.log.everHidden);
  const seen = viewLog(entries, viewer, live.log.state, live.ruleset, live.log.everHidden);
  // A kind that held the same view and now sees the same view and events gets the same message,
  // without a diff of its own (the players, when nothing hidden or secret sets them apart).
  for (const built of distinct) {
    if (built.gm !== gm) continue;
    if (base && built.base === base && sameJson(built.view, next) && sameJson(built.entries, seen)) {
      live.views.set(key, { seq, view: built.view });
      return built;
    }
  }
  const delta = base
    ? deltaOfView(
        base,
        next,
        seen.map((e) => e.event),
      )
    : undefined;
  for (const built of distinct) {
    if (built.gm !== gm || !sameJson(built.entries, seen)) continue;
    const sameView = sameJson(built.view, next);
    // The same delta is the same bytes when this kind would send it too: surely when it is shorter
    // than any view, else when its view is the same. (The player of a hidden combatant gets the table's
    // delta when nothing of that combatant moved, though their views differ.)
    const shared =
      (built.delta && delta !== undefined && sameJson(built.delta.value, delta)
        ? built.delta.json.length < SHORTEST_VIEW || sameView
        : false) ||
      (!built.delta && delta === undefined && sameView);
    if (shared) {
      // One object for views that are the same, so the next change finds them so at a glance.
      live.views.set(key, { seq, view: sameView ? built.view : next });
      return built;
    }
  }
  live.views.set(key, { seq, view: next });
  // The events in the compact form (one slot per entry, their shared group and time once), written
  // once for every kind that sees the same events (the GM's and the table's, when nothing is hidden).
  const head = distinct.find((built) => sameJson(built.entries, seen))?.head ?? changeHead(seen, from, seq);
  const built: Built = { gm, base, view: next, entries: seen, head, text: '' };
  const body = changeBody(delta, next);
  if ('state' in body) built.text = rawMessage<ChangeMessage>('change', { ...head, state: body.state });
  else {
    // A delta comes back only for a delta given.
    if (delta !== undefined) built.delta = { value: delta, json: body.delta };
    built.text = rawMessage<ChangeMessage>('change', { ...head, delta: body.delta });
  }
  distinct.push(built);
  return built;
}
