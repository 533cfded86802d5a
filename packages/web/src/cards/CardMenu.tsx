import { useState } from 'react';
import { focusOnMount } from '../forms/focus.js';
import { useRun } from '../store/react.js';

/**
 * The GM's menu on a card: rename or remove the combatant in two clicks (the menu, then the choice), each
 * undone by Undo like every change. Rename keeps the card's place and everything else about it.
 */
export function CardMenu({ id, name }: { id: string; name: string }) {
  const run = useRun();
  const [open, setOpen] = useState(false);
  const [renaming, setRenaming] = useState<string | null>(null);
  const close = () => {
    setOpen(false);
    setRenaming(null);
  };
  return (
    <details className="card-menu" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary aria-label={`More for ${name}: rename, remove`} title="Rename or remove">
        ⋯
      </summary>
      {renaming === null ? (
        <div className="card-menu-items">
          <button type="button" onClick={() => setRenaming(name)}>
            Rename…
          </button>
          <button
            type="button"
            className="danger"
            title="Undo brings it back"
            onClick={() => {
              close();
              void run(
                { type: 'remove-combatant', combatant: id },
                `${name} removed (Undo brings them back)`,
              );
            }}
          >
            Remove {name}
          </button>
        </div>
      ) : (
        <form
          className="card-menu-items"
          onSubmit={async (e) => {
            e.preventDefault();
            const to = renaming.trim();
            if (!to || to === name) return close();
            const r = await run(
              { type: 'update-combatant', combatant: id, name: to },
              `${name} renamed ${to}`,
            );
            if (r.ok) close();
          }}
        >
          <label>
            New name
            <input
              value={renaming}
              maxLength={80}
              ref={focusOnMount}
              onChange={(e) => setRenaming(e.currentTarget.value)}
              onKeyDown={(e) => {
                if (e.key === 'Escape') close();
              }}
            />
          </label>
          <button type="submit">Rename</button>
        </form>
      )}
    </details>
  );
}
