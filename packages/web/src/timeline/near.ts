import { type RefObject, useEffect, useState } from 'react';

/** The nearest ancestor that scrolls vertically (a GM column), or null for the page itself. */
export function scrollingBox(el: HTMLElement): HTMLElement | null {
  for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
    const o = getComputedStyle(p).overflowY;
    if (o === 'auto' || o === 'scroll') return p;
  }
  return null;
}

/**
 * How near the screen a picture is drawn: 200 px, two notches of a mouse wheel, so a picture scrolled to
 * is drawn a frame or two before it shows.
 */
export const NEAR_PX = 200;

/**
 * Whether an element is on screen or within `NEAR_PX` of it, in the box it scrolls in: a picture that is
 * not is drawn again only when it comes near, so a change that lands while it is scrolled away costs
 * nothing there. True until the first observation, and wherever the browser cannot tell.
 */
export function useNearScreen(ref: RefObject<HTMLElement | null>): boolean {
  const [near, setNear] = useState(true);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver((seen) => setNear(seen.at(-1)?.isIntersecting ?? true), {
      root: scrollingBox(el),
      rootMargin: `${NEAR_PX}px 0px`,
    });
    io.observe(el);
    return () => io.disconnect();
  }, [ref]);
  return near;
}
