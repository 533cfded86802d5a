import type { EncounterState, Json, Rejection } from '@roundkeeper/engine';
import { reject } from '@roundkeeper/engine';

// A refusal never tells a viewer about a combatant it may not see. A command from anyone but the GM is
// decided as if the combatants hidden from its sender did not exist: every mention of one is replaced
// by an id no combatant has (`mask`), and the refusal comes back with the id as it was sent (`unmask`).
// So a hidden id and an id that does not exist get the same answer, by construction. What the rules
// say may still list the encounter's combatants: `scrub` takes out every one the viewer may not see.

const ID_CHARS = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** An id of the same length and kind as `id` that no combatant has and no other mask took. */
function stranger(id: string, taken: (id: string) => boolean): string {
  for (let at = id.length - 1; at >= 0; at--) {
    for (const c of ID_CHARS) {
      const candidate = id.slice(0, at) + c + id.slice(at + 1);
      if (candidate !== id && !taken(candidate)) return candidate;
    }
  }
  return `${id}0`;
}

/** A command with every hidden combatant's id (as a value or a key) replaced; `masks`: stand-in → id. */
export interface Masked {
  command: unknown;
  masks: Map<string, string>;
}

/**
 * `command` with the ids in `hidden` replaced by ids no combatant has, or undefined when it names none.
 * Walks the command without recursion (it was checked for depth already, but need not be trusted).
 */
export function mask(
  command: unknown,
  hidden: ReadonlySet<string>,
  state: EncounterState,
): Masked | undefined {
  if (hidden.size === 0) return undefined;
  const byId = new Map<string, string>();
  const stand = (id: string): string => {
    let m = byId.get(id);
    if (m === undefined) {
      const used = new Set(byId.values());
      m = stranger(id, (x) => Object.hasOwn(state.combatants, x) || hidden.has(x) || used.has(x));
      byId.set(id, m);
    }
    return m;
  };
  const swap = (v: unknown): unknown => {
    if (typeof v === 'string') return hidden.has(v) ? stand(v) : v;
    if (v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) return v.map(swap);
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      Object.defineProperty(out, hidden.has(k) ? stand(k) : k, {
        value: swap(x),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  };
  // Structured clone by JSON first: a command is JSON, and the walk below then stays shallow per level.
  const found = JSON.stringify(command ?? null);
  let any = false;
  for (const id of hidden) {
    if (found.includes(JSON.stringify(id))) {
      any = true;
      break;
    }
  }
  if (!any) return undefined;
  const masked = swap(JSON.parse(found));
  if (byId.size === 0) return undefined;
  return { command: masked, masks: new Map([...byId].map(([id, m]) => [m, id])) };
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `text` with every stand-in put back to the id it stood for. */
function unmaskText(text: string, masks: ReadonlyMap<string, string>): string {
  let out = text;
  for (const [m, id] of masks) out = out.replace(new RegExp(`(?<![\\w-])${escapeRe(m)}(?![\\w-])`, 'g'), id);
  return out;
}

/** The refusal with every stand-in put back to the id its sender wrote. */
export function unmask(r: Rejection, masks: ReadonlyMap<string, string> | undefined): Rejection {
  if (!masks?.size) return r;
  return {
    ...r,
    message: unmaskText(r.message, masks),
    ...(r.details !== undefined
      ? { details: JSON.parse(unmaskText(JSON.stringify(r.details), masks)) as Json }
      : {}),
  } as Rejection;
}

/**
 * The refusal of a masked command as a viewer who may not see `hidden` gets it (before `unmask`): a
 * list of the encounter's combatants (an unknown id's refusal) is made again of those it sees; any other
 * refusal that names one it may not see, by id or name, says only that the rules refuse the command.
 * Run on the masked command's refusal, it treats a hidden id and a made-up one alike.
 */
export function scrub(r: Rejection, state: EncounterState, hidden: ReadonlySet<string>): Rejection {
  if (hidden.size === 0) return r;
  if (r.code === 'combatant/unknown') {
    const details = r.details as { combatant?: unknown } | undefined;
    const id = typeof details?.combatant === 'string' ? details.combatant : undefined;
    if (id !== undefined) {
      const seen = state.roster.filter((c) => !hidden.has(c)).join(', ') || 'none yet';
      return reject(
        'combatant/unknown',
        `There is no combatant "${id}" in this encounter (combatants: ${seen}).`,
        { combatant: id },
      );
    }
  }
  const text = `${r.message} ${JSON.stringify(r.details ?? null)}`;
  for (const id of hidden) {
    const name = state.combatants[id]?.name;
    for (const word of name ? [id, name] : [id]) {
      if (new RegExp(`(?<![\\w-])${escapeRe(word)}(?![\\w-])`).test(text)) {
        return reject('command/refused', 'The rules refuse this command now.');
      }
    }
  }
  return r;
}
