import { type RefObject, useEffect } from 'react';
import { isTyping } from '../screens/gm/keys.js';

/** The key that takes the acting combatant's planned action (a ruleset's `act` panel), on any page that shows it. */
export const TAKE_KEY = 't';

/**
 * While `on`, the key `t` (outside a text field, without a modifier) sends the form inside `box` as its
 * submit button would: the acting combatant's planned action in one key, with what the form holds.
 */
export function useTakeKey(box: RefObject<HTMLElement | null>, on: boolean): void {
  useEffect(() => {
    if (!on) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== TAKE_KEY || e.ctrlKey || e.metaKey || e.altKey || e.repeat || isTyping(e.target)) return;
      const submit = box.current?.querySelector<HTMLButtonElement>('button[type="submit"]');
      if (!submit) return;
      e.preventDefault();
      submit.click();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [box, on]);
}
