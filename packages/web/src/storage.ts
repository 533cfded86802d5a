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

export function library(): CombatantTemplate[] {
  return read<CombatantTemplate[]>(LIBRARY, []);
}

export function saveTemplate(t: CombatantTemplate): CombatantTemplate[] {
  const next = [...library().filter((x) => x.name !== t.name), t].sort((a, b) =>
    a.name.localeCompare(b.name),
  );
  write(LIBRARY, next);
  return next;
}

export function removeTemplate(name: string): CombatantTemplate[] {
  const next = library().filter((x) => x.name !== name);
  write(LIBRARY, next);
  return next;
}
