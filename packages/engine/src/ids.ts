/** A name as an id: lower-case letters, digits and dashes ("Orc Chief" → "orc-chief"); `fallback` if none. */
export function slugOf(name: string, fallback: string): string {
  const s = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return s || fallback;
}

/** `wanted`, or the first of `wanted-2`, `wanted-3`… that is not `taken`. */
export function firstFree(wanted: string, taken: (id: string) => boolean): string {
  if (!taken(wanted)) return wanted;
  for (let n = 2; ; n++) {
    const id = `${wanted}-${n}`;
    if (!taken(id)) return id;
  }
}

/** How names are compared for being the same: case, and spaces around and between words, aside. */
function nameKey(name: string): string {
  return name.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** "Orc 3" → { base: "Orc", n: 3 }; a name without a trailing number is its own base. */
function numbered(name: string): { base: string; n?: number } {
  const m = /^(.*\S)\s+(\d{1,9})$/.exec(name.trim());
  return m ? { base: m[1]!, n: Number(m[2]) } : { base: name.trim() };
}

/**
 * The display name a new combatant gets: `wanted` when no one in `taken` has it (case and spacing
 * aside), otherwise its base numbered on from the highest number that base already has — a second
 * "Goblin" is "Goblin 2", a second wave "Orc 1…4" after Orc 1…4 becomes "Orc 5…8". Every way a
 * combatant is added (a command, a form, a scenario, an import, a library creature) goes through the
 * `add-combatant` command, which names it with this, so no two combatants ever share a name.
 */
export function distinctName(wanted: string, taken: Iterable<string>): string {
  const keys = new Set<string>();
  for (const t of taken) keys.add(nameKey(t));
  const name = wanted.trim().replace(/\s+/g, ' ');
  if (!keys.has(nameKey(name))) return name;
  const { base } = numbered(name);
  const baseKey = nameKey(base);
  let highest = 1;
  for (const key of keys) {
    if (key === baseKey) continue;
    const other = numbered(key);
    if (other.n !== undefined && nameKey(other.base) === baseKey) highest = Math.max(highest, other.n);
  }
  return `${base} ${highest + 1}`;
}

/**
 * The names a batch of new combatants will get, in order, added after those named `taken`: what the
 * engine's `add-combatant` will decide, for a form to preview ("Orc 1…4" → "Orc 5…8").
 */
export function distinctNames(wanted: readonly string[], taken: Iterable<string>): string[] {
  const all = [...taken];
  return wanted.map((w) => {
    const name = distinctName(w, all);
    all.push(name);
    return name;
  });
}
