/** Notes longer than this are folded: a 10,000-character note must not grow the page. */
export const NOTE_FOLD = 160;

/** A GM note: shown whole when short, folded behind its first words when long. */
export function Note({ text }: { text: string }) {
  if (text.length <= NOTE_FOLD && !text.includes('\n'))
    return (
      <p className="notes">
        GM note: <bdi>{text}</bdi>
      </p>
    );
  return (
    <details className="notes">
      <summary>
        GM note: <bdi>{text.slice(0, 80).split('\n')[0]}</bdi>…
      </summary>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take the focus to be scrolled without a mouse */}
      <section className="note-body" tabIndex={0} aria-label="GM note">
        <bdi>{text}</bdi>
      </section>
    </details>
  );
}
