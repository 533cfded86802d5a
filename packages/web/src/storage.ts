/** What this browser remembers: the encounter links it holds, and the GM's combatant library. */
export interface StoredLink {
  id: string;
  token: string;
  name?: string;
  role?: string;
}

export interface CombatantTemplate {
  name: string;
  side: 'pc' | 'npc';
  hp?: number;
  group?: string;
  hidden?: boolean;
  notes?: string;
  player?: string;
  stats: Record<string, unknown>;
  ruleset?: string;
}

const LINKS = 'roundkeeper.links';
const LIBRARY = 'roundkeeper.library';

function read<T>(key: string, fallback: T): T {
  try {
    const raw = localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : fallback;
  } catch {
    return fallback;
  }
}

function write(key: string, value: unknown): void {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or disabled: the app still works, it only forgets.
  }
}

export function storedLinks(): StoredLink[] {
  return read<StoredLink[]>(LINKS, []);
}

export function rememberLink(link: StoredLink): void {
  const links = storedLinks().filter((l) => l.token !== link.token);
  links.unshift(link);
  write(LINKS, links.slice(0, 200));
}

export function forgetLink(token: string): void {
  write(
    LINKS,
    storedLinks().filter((l) => l.token !== token),
  );
}

function everyTemplate(): CombatantTemplate[] {
  return read<CombatantTemplate[]>(LIBRARY, []);
}

/**
 * The library of one ruleset: a template keeps the ruleset it was made in, because its stats mean
 * something only there (a Dexterity code is nothing to a 6-second sheet). Older templates without a
 * ruleset are not offered.
 */
export function library(ruleset: string): CombatantTemplate[] {
  return everyTemplate().filter((t) => t.ruleset === ruleset);
}

export function saveTemplate(t: CombatantTemplate): CombatantTemplate[] {
  const ruleset = t.ruleset ?? '';
  const next = [
    ...everyTemplate().filter((x) => !(x.name === t.name && x.ruleset === ruleset)),
    { ...t, ruleset },
  ].sort((a, b) => a.name.localeCompare(b.name));
  write(LIBRARY, next);
  return library(ruleset);
}

export function removeTemplate(name: string, ruleset: string): CombatantTemplate[] {
  write(
    LIBRARY,
    everyTemplate().filter((x) => !(x.name === name && x.ruleset === ruleset)),
  );
  return library(ruleset);
}
