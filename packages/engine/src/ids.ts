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
