/**
 * A ref that focuses its element as it is mounted, and never again: for a field that opens on a click to
 * be typed in at once. In place of `autoFocus`, which React emulates by focusing the element on mount and
 * Preact leaves to the browser's `autofocus` attribute, honoured once per document (docs/web.md, "Runtime").
 * One function for every element, so it is not called again when the element's component renders again.
 */
export function focusOnMount(el: HTMLElement | null): void {
  el?.focus();
}
