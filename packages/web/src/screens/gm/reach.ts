import { useEffect, useRef } from 'react';

/**
 * When the turn passes, the roster brings the acting card into view where the roster scrolls on its own
 * (a laptop: a long roster's actor may sit below the fold); a page that scrolls as a whole is left where
 * it is. Returns the ref for the roster's list.
 *
 * The acting card is watched by an `IntersectionObserver` on the roster's column, which the browser answers
 * after it has laid out the frame: the change's own task asks for no style or layout (asked in an effect,
 * the column's style and both boxes forced them in the middle of it). The boxes are read when it answers,
 * once per turn; then the card is let go, so a GM scrolling the column away is not brought back.
 */
export function useActorInView(acting: string | null) {
  const roster = useRef<HTMLUListElement | null>(null);
  useEffect(() => {
    const list = roster.current;
    const column = list?.closest('.col');
    if (!acting || !list || !column) return;
    const card = list.querySelector(`[data-combatant="${CSS.escape(acting)}"]`);
    if (!card) return;
    const watch = new IntersectionObserver(
      () => {
        watch.disconnect();
        // Read once the frame is laid out: the style and the boxes are clean here, so asking costs nothing.
        if (getComputedStyle(column).overflowY !== 'auto') return;
        const box = column.getBoundingClientRect();
        const at = card.getBoundingClientRect();
        if (at.top < box.top || at.bottom > box.bottom) card.scrollIntoView({ block: 'nearest' });
      },
      { root: column },
    );
    watch.observe(card);
    return () => watch.disconnect();
  }, [acting]);
  return roster;
}

/**
 * The top bar's height as the page lays it out, in `--tracker-bar` on the root: on a page that scrolls as
 * a whole (a tablet) the bar sticks at the top, and what sticks under it and where the focus scrolls to
 * are kept below it (styles.css). The root also carries the class `tracker-page` while the tracker is
 * shown, which the stylesheet's rules for the root select instead of `html:has(main.tracker)` (a `:has()`
 * on the root is asked again at every element a change inserts or removes anywhere in the page). Returns
 * the ref for the bar.
 */
export function useBarHeight() {
  const bar = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const el = bar.current;
    if (!el) return;
    const root = document.documentElement;
    root.classList.add('tracker-page');
    const set = () => root.style.setProperty('--tracker-bar', `${el.getBoundingClientRect().height}px`);
    set();
    const watch = new ResizeObserver(set);
    watch.observe(el);
    return () => {
      watch.disconnect();
      root.style.removeProperty('--tracker-bar');
      root.classList.remove('tracker-page');
    };
  }, []);
  return bar;
}
