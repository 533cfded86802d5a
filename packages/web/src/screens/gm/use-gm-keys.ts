import { useEffect, useEffectEvent } from 'react';
import { isTyping } from './keys.js';

/** What the GM's keys do on the tracker (each reads the page as it is when the key comes). */
export interface GmKeys {
  escape(): void;
  help(): void;
  undo(): void;
  redo(): void;
  next(): void;
  start(): void;
  pin(): void;
  move(direction: 'up' | 'down'): void;
  /** The next (1) or previous (-1) combatant in the order. */
  step(by: 1 | -1): void;
  /** The combatant at a place in the order, from 0. */
  pick(index: number): void;
  damage(): void;
  heal(): void;
  condition(): void;
  remove(): void;
}

/**
 * The GM's keyboard: one listener for the page's lifetime, never while a text field takes the letters.
 * `?` help, `n` next, `i` initiative, `u`/`r` and Ctrl+Z/Ctrl+Shift+Z undo and redo, `j`/`k` and `1`–`9`
 * select, `p` pin, Alt+↑/↓ move; for the selected combatant `d` damage, `h` heal, `c` a condition, `x` or
 * Delete remove (listed in Help, `help.tsx`).
 */
export function useGmKeys(keys: GmKeys): void {
  const onKey = useEffectEvent((e: KeyboardEvent) => {
    if (e.key === 'Escape') return keys.escape();
    if (isTyping(e.target)) return;
    const ctrl = e.ctrlKey || e.metaKey;
    const shortcut = (f: () => void) => {
      // A focused list would take the letter as a search ("n" picks "none"): the shortcut wins.
      e.preventDefault();
      f();
    };
    const letters: Record<string, () => void> = {
      n: keys.next,
      i: keys.start,
      u: keys.undo,
      r: keys.redo,
      p: keys.pin,
      j: () => keys.step(1),
      k: () => keys.step(-1),
      d: keys.damage,
      h: keys.heal,
      c: keys.condition,
      x: keys.remove,
      Delete: keys.remove,
    };
    if (e.key === '?') shortcut(keys.help);
    else if (ctrl && e.key.toLowerCase() === 'z') shortcut(e.shiftKey ? keys.redo : keys.undo);
    else if (e.altKey && (e.key === 'ArrowUp' || e.key === 'ArrowDown'))
      shortcut(() => keys.move(e.key === 'ArrowUp' ? 'up' : 'down'));
    else if (ctrl || e.altKey) return;
    else if (Object.hasOwn(letters, e.key)) shortcut(letters[e.key]!);
    else if (/^[1-9]$/.test(e.key)) shortcut(() => keys.pick(Number(e.key) - 1));
  });
  useEffect(() => {
    const listener = (e: KeyboardEvent) => onKey(e);
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, []);
}
