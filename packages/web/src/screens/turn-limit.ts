import { useSyncExternalStore } from 'react';

/**
 * The turn timer's optional limit, in seconds (0: none): a setting of this browser, not of the encounter.
 * The GM sets it on the GM's page; a table screen opened in the same browser (a second monitor) reads the
 * same value and follows a change at once (the `storage` event, or this page's own notice). A player's
 * phone has none: it shows the time only.
 */
const KEY = 'roundkeeper.turnLimit';
const CHANGED = 'roundkeeper:turn-limit';

/** The choices offered, in seconds. */
export const LIMITS: readonly number[] = [0, 30, 60, 90, 120, 180, 300];

export function readTurnLimit(): number {
  try {
    const n = Number(localStorage.getItem(KEY) ?? 0);
    return Number.isInteger(n) && n > 0 && n <= 86_400 ? n : 0;
  } catch {
    return 0;
  }
}

/**
 * The limit as last read from storage: the timer asks on every render (every change of the fight), and
 * storage is read again only when it says it changed (or when a part starts listening).
 */
let known: number | null = null;
const current = (): number => {
  known ??= readTurnLimit();
  return known;
};

export function setTurnLimit(seconds: number): void {
  try {
    if (seconds > 0) localStorage.setItem(KEY, String(seconds));
    else localStorage.removeItem(KEY);
  } catch {
    // Storage disabled: the limit lasts as long as the page's notice does (nothing to keep it).
  }
  known = null;
  window.dispatchEvent(new Event(CHANGED));
}

function subscribe(changed: () => void): () => void {
  known = null;
  const again = () => {
    known = null;
    changed();
  };
  const onStorage = (e: StorageEvent) => {
    if (e.key === KEY || e.key === null) again();
  };
  window.addEventListener('storage', onStorage);
  window.addEventListener(CHANGED, again);
  return () => {
    window.removeEventListener('storage', onStorage);
    window.removeEventListener(CHANGED, again);
  };
}

/** The limit now, following changes made here or in another tab of this browser. */
export function useTurnLimit(): number {
  return useSyncExternalStore(subscribe, current, () => 0);
}

/** "No limit", "30 s", "1 min", "1 min 30 s". */
export function limitWords(seconds: number): string {
  if (!seconds) return 'No limit';
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return [m ? `${m} min` : '', s ? `${s} s` : ''].filter(Boolean).join(' ');
}
