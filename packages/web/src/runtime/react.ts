import { useEffect, useState } from 'preact/hooks';

/**
 * What the app's `react` resolves to (scripts/preact-alias.ts): Preact's compat layer, with React's
 * `useDeferredValue` where compat's returns its value at once. The log, the dice and the timeline take the
 * view a change later (`useDeferredValue`) so that a change draws the clock, the cards and the palette in
 * the message's own task and those after it; compat's would draw them in the same task, which measured
 * +0.7 ms on the GM's and the player's page at 12 combatants (docs/web.md, "Runtime").
 */
// @ts-expect-error compat's types declare it as one `export =` namespace; the module has named exports.
export * from 'preact/compat';
export { default } from 'preact/compat';

/**
 * React's semantics without its scheduler: on mount the value itself; on a change the value shown before,
 * and the new one in a render of its own after the page is painted (Preact runs effects after the next
 * frame). A value that changes again meanwhile is drawn once, at its latest.
 */
export function useDeferredValue<T>(value: T): T {
  const [shown, setShown] = useState(() => value);
  useEffect(() => {
    if (!Object.is(shown, value)) setShown(() => value);
  }, [shown, value]);
  return shown;
}
