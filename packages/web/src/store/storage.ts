/** What this browser remembers: the encounter links it holds, and the key of the GM's creature library. */
export interface StoredLink {
  id: string;
  token: string;
  name?: string;
  role?: string;
}

const LINKS = 'roundkeeper.links';
const LIBRARY_KEY = 'roundkeeper.libraryKey';

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

/**
 * The key of this browser's creature library on the server (192 random bits, base64url), made on first
 * use. The server keeps only its hash; whoever holds the key holds the library.
 */
export function libraryKey(): string {
  const have = read<string | null>(LIBRARY_KEY, null);
  if (typeof have === 'string' && /^[A-Za-z0-9_-]{22,64}$/.test(have)) return have;
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  const key = btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
  write(LIBRARY_KEY, key);
  return key;
}
