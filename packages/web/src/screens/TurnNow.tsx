import type { EncounterView, LogEntry } from '@roundkeeper/engine';
import { FiredLine } from '../timeline/FiredLine.js';
import { NextRound } from './NextRound.js';
import { TurnLimitPicker, TurnTimer } from './TurnTimer.js';

/**
 * What the turn under way adds to the clock, on the GM's page and the table screen: the timed events that
 * fired as it began, how long it has lasted (the GM also picks this browser's turn limit), and on the GM's
 * page the next round's order where the rules already fix it (the table screen has it under "Next: …").
 */
export function TurnNow({
  view,
  entries,
  gm = false,
}: {
  view: EncounterView;
  entries: readonly LogEntry[];
  gm?: boolean;
}) {
  return (
    <>
      <FiredLine />
      {gm ? (
        <>
          <div className="turn-now">
            <TurnTimer view={view} entries={entries} gm />
            <TurnLimitPicker />
          </div>
          <NextRound />
        </>
      ) : (
        <TurnTimer view={view} entries={entries} />
      )}
    </>
  );
}
