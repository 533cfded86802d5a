import type { Command, EncounterView } from '@roundkeeper/engine';
import { useId, useState } from 'react';
import { conditionsOf } from '../../model.js';
import { useRun } from '../../store/react.js';

/** How long a player's own condition lasts: until they remove it, or until their next turn starts. */
const LASTS = {
  removed: 'until removed',
  turn: 'until my next turn',
} as const;

/**
 * A player's own conditions, where the GM allowed this link to add and remove them (`add-effect`,
 * `remove-effect`): on this character only — the server refuses any other in words.
 */
export function OwnConditions({
  view,
  actor,
  canAdd,
  canRemove,
}: {
  view: EncounterView;
  actor: string;
  canAdd: boolean;
  canRemove: boolean;
}) {
  const run = useRun();
  const [name, setName] = useState('');
  const [lasts, setLasts] = useState<keyof typeof LASTS>('removed');
  const nameId = useId();
  const lastsId = useId();
  const c = view.combatants[actor];
  if (!c) return null;
  const conds = conditionsOf(view, actor);
  return (
    <section className="panel" aria-label={`Conditions on ${c.name}`}>
      <h2>Your conditions</h2>
      {conds.length ? (
        <ul className="condition-list">
          {conds.map((k) => (
            <li key={k.id} className="row">
              <span className="grow">
                <strong>
                  <bdi>{k.name}</bdi>
                </strong>{' '}
                <span className="muted">{k.remaining}</span>
              </span>
              {canRemove ? (
                <button
                  type="button"
                  aria-label={`Remove ${k.name}`}
                  onClick={() => void run({ type: 'remove-effect', effect: k.id }, `${k.name} removed`)}
                >
                  Remove
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted small">None.</p>
      )}
      {canAdd ? (
        <form
          className="condition-form"
          aria-label={`Add a condition to ${c.name}`}
          onSubmit={async (e) => {
            e.preventDefault();
            const cmd: Command = {
              type: 'add-effect',
              target: actor,
              name: name.trim(),
              duration:
                lasts === 'turn' ? { kind: 'until-turn-start', combatant: actor } : { kind: 'indefinite' },
            };
            if ((await run(cmd, `${name.trim()} on ${c.name}`)).ok) setName('');
          }}
        >
          <div className="row">
            <label htmlFor={nameId}>Condition</label>
            <input
              id={nameId}
              value={name}
              maxLength={80}
              placeholder="Concentrating: Bless"
              onChange={(e) => setName(e.currentTarget.value)}
            />
          </div>
          <div className="row">
            <label htmlFor={lastsId}>Lasts</label>
            <select
              id={lastsId}
              value={lasts}
              onChange={(e) => setLasts(e.currentTarget.value as keyof typeof LASTS)}
            >
              {Object.entries(LASTS).map(([k, label]) => (
                <option key={k} value={k}>
                  {label}
                </option>
              ))}
            </select>
            <button type="submit" disabled={!name.trim()}>
              Add condition
            </button>
          </div>
        </form>
      ) : null}
    </section>
  );
}
