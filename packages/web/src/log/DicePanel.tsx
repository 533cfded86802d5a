import { type CoreEvent, type EncounterView, isCore, type LogEntry } from '@roundkeeper/engine';
import { memo, useDeferredValue } from 'react';

/** Dice results with their breakdown (every face), newest first. */
export const DicePanel = memo(function DicePanel({
  view,
  entries,
}: {
  view: EncounterView;
  entries: LogEntry[];
}) {
  const rolls: Array<{ seq: number; event: Extract<CoreEvent, { type: 'dice/rolled' }> }> = [];
  for (let i = entries.length - 1; i >= 0 && rolls.length < 6; i--) {
    const e = entries[i];
    if (e && isCore(e.event) && e.event.type === 'dice/rolled') rolls.push({ seq: e.seq, event: e.event });
  }
  if (!rolls.length) return null;
  return (
    <section className="panel dice" aria-label="Dice">
      <h2>Dice</h2>
      <ul>
        {rolls.map((e) => {
          const roll = e.event.roll;
          const who = e.event.combatant ? (view.combatants[e.event.combatant]?.name ?? '') : '';
          return (
            <li key={e.seq}>
              <span className="dice-total">{roll.total}</span>
              <span>
                {who} {e.event.purpose ?? ''}
                <br />
                <code>{roll.text}</code>
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
});

/** The dice a change later, as the log (`LaterLog`): only this part is drawn in the deferred render. */
export function LaterDice({ view, entries }: { view: EncounterView; entries: LogEntry[] }) {
  return <DicePanel view={useDeferredValue(view)} entries={useDeferredValue(entries)} />;
}
