import { createElement, memo, type ReactNode } from 'react';
import { type SvgEl, sameEls, type TimelinePiece } from './timeline-svg.js';

/** React's name of an SVG attribute as the picture writes it: `stroke-width` → `strokeWidth`. */
export const propNames = new Map<string, string>([['class', 'className']]);
export function propName(attr: string): string {
  let name = propNames.get(attr);
  if (name === undefined) {
    name = attr.startsWith('data-') ? attr : attr.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    propNames.set(attr, name);
  }
  return name;
}

/**
 * An element of the picture as React's: a change then touches only the attributes and texts that differ.
 * Its children are keyed by their tag and class and their rank among the children of that kind, so an
 * element put in or taken out (a lane's highlight) leaves the others where they are, instead of each child
 * after it being replaced by the next one.
 */
export function svgElement(e: SvgEl | string, key?: string): ReactNode {
  if (typeof e === 'string') return e;
  const props: Record<string, string | number> = key === undefined ? {} : { key };
  for (const k in e.attrs) props[propName(k)] = e.attrs[k]!;
  return e.children ? createElement(e.tag, props, ...svgChildren(e.children)) : createElement(e.tag, props);
}

export function svgChildren(els: readonly (SvgEl | string)[]): ReactNode[] {
  const rank = new Map<string, number>();
  return els.map((c) => {
    if (typeof c === 'string') return c;
    const kind = c.attrs.class === undefined ? c.tag : `${c.tag}.${c.attrs.class}`;
    const n = rank.get(kind) ?? 0;
    rank.set(kind, n + 1);
    return svgElement(c, `${kind}${n}`);
  });
}

/**
 * The last piece drawn under each key: a piece drawn again with the same elements is given back as that
 * same object, so `SvgPiece` (a plain memo) draws again only the pieces whose elements changed.
 */
const lastPieces = new Map<string, TimelinePiece>();

export function sharedPiece(piece: TimelinePiece): TimelinePiece {
  const last = lastPieces.get(piece.key);
  if (last && sameEls(last.els, piece.els)) return last;
  lastPieces.set(piece.key, piece);
  return piece;
}

/** One piece of the timeline picture (see `sharedPiece`). */
export const SvgPiece = memo(function SvgPiece({ piece }: { piece: TimelinePiece }) {
  return createElement('g', null, ...svgChildren(piece.els));
});
