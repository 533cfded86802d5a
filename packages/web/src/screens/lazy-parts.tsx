import { type ComponentType, lazy, memo, Suspense } from 'react';

/**
 * A part in a chunk of its own, loaded after the page's first load: the screen draws without it first,
 * then with it (nothing in its place meanwhile). The clock's extras — timed events, the turn timer, the
 * next round's order — come so, each screen naming only its own (`gm/lazy.ts`, `table/lazy.ts`,
 * `player/lazy.ts`): a screen's first load carries no other screen's.
 */
export function part<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const Chunk = lazy(() => load().then((c) => ({ default: c })));
  // Memoized as the part itself may be: the same props draw nothing again.
  return memo((props: P) => (
    <Suspense fallback={null}>
      <Chunk {...props} />
    </Suspense>
  ));
}
