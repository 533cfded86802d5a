import { useLayoutEffect, useRef } from 'react';

export const SHORTCUTS: [string, string][] = [
  ['n', 'Next turn'],
  ['i', 'Roll initiative / start the fight'],
  ['u or Ctrl+Z', 'Undo'],
  ['r or Ctrl+Shift+Z', 'Redo'],
  ['j / k', 'Select the next / previous combatant'],
  ['1–9', 'Select combatant by position'],
  ['p', 'Pin the selection (keep it when the turn changes)'],
  ['d', 'Damage the selected combatant (asks how much; Enter sends)'],
  ['h', 'Heal the selected combatant (asks how much; Enter sends)'],
  ['c', "Add a condition to the selected combatant (goes to the GM tools' Condition field)"],
  ['x or Delete', 'Remove the selected combatant (asks first; Undo brings them back)'],
  ['t', "Take the acting combatant's planned action (where the rules plan ahead, as tempo does)"],
  ['Alt+↑ / Alt+↓', 'Move the selected combatant up / down the order (where the rules let the GM set it)'],
  ['?', 'Show or hide this help'],
  ['Esc', 'Close dialogs'],
];

export function HelpDialog({ onClose }: { onClose: () => void }) {
  const close = useRef<HTMLButtonElement | null>(null);
  // A modal dialog takes the focus when it opens, and gives it back when it closes: in the commit (a layout
  // effect), before the next keystroke can move the focus elsewhere (docs/web.md, "Runtime").
  useLayoutEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    close.current?.focus();
    return () => before?.focus?.();
  }, []);
  return (
    <div
      className="overlay"
      role="dialog"
      aria-modal="true"
      aria-labelledby="help-title"
      onKeyDown={(e) => {
        // Tab and Shift+Tab cycle inside the dialog: the page behind it is not reachable while it is open.
        if (e.key !== 'Tab') return;
        const inside = [...e.currentTarget.querySelectorAll<HTMLElement>('button, [href], input, select')];
        const i = inside.indexOf(document.activeElement as HTMLElement);
        const next = inside[(i + (e.shiftKey ? inside.length - 1 : 1)) % inside.length];
        e.preventDefault();
        next?.focus();
      }}
    >
      <div className="dialog">
        <h2 id="help-title">Keyboard shortcuts</h2>
        <dl className="shortcuts">
          {SHORTCUTS.map(([k, what]) => (
            <div key={k}>
              <dt>
                <kbd>{k}</kbd>
              </dt>
              <dd>{what}</dd>
            </div>
          ))}
        </dl>
        <p className="muted">
          Tab moves between controls; Enter or Space activates the focused one. The letters do nothing while
          you type in a field (a name, an amount, a search): Esc or a click outside it gives them back.
        </p>
        <h3>This page</h3>
        <ul className="page-help">
          <li>
            The top bar says the moment and whose turn it is; Next passes the turn, Roll initiative starts the
            fight, Undo and Redo take back or bring back the last change, End the fight ends it after you
            confirm (Undo restores it).
          </li>
          <li>
            Combatants, left, in the round's order: click a name to select it, the HP value to type damage
            (-7), healing (+5), a new value (12) or temporary HP (t5).
          </li>
          <li>
            The middle column works for the selected combatant (the one acting, unless you pin another): its
            actions (greyed ones say why), the GM tools (damage, conditions, edit, remove), the ruleset's
            other commands and panels, the timeline. The keys d, h, c and x act on that combatant too.
          </li>
          <li>
            Right: share links for the table and each player (and whether a player may add their own
            conditions), how the table and players see HP, the options, the log (newest first) and the dice,
            and adding combatants, with a search of the creature library.
          </li>
        </ul>
        <button type="button" className="primary" onClick={onClose} ref={close}>
          Close
        </button>
      </div>
    </div>
  );
}
