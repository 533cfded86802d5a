import type { CommandForm as CommandFormSpec, EncounterView } from '@roundkeeper/engine';
import { memo, useDeferredValue } from 'react';
import { Commands } from '../../commands/CommandForm.js';
import { GmQuick } from '../../gm-tools/GmQuick.js';

/**
 * The GM tools and the other commands for the selected combatant, under the palette (below the fold of a
 * laptop's middle column with a long palette): they follow a change one render later, in an interruptible
 * render of their own (as the log and the dice do), so the headline, the cards, "Acting: …" and the palette
 * are committed and laid out first. This part holds the deferred copies itself: the tracker is not drawn a
 * second time for them.
 */
export const LaterTools = memo(function LaterTools({
  view,
  actor,
  forms,
}: {
  view: EncounterView;
  actor: string;
  forms: CommandFormSpec[];
}) {
  const shown = useDeferredValue(view);
  // The actor follows the view it came with: deferred with a change of the fight, at once when the GM
  // picks another combatant (the view is the same then, and a choice made in the tools is not undone).
  const later = useDeferredValue(actor);
  const who = shown === view ? actor : later;
  const c = shown.combatants[who];
  if (!c) return null;
  return (
    <>
      <GmQuick view={shown} c={c} actor={who} />
      {forms.length ? <Commands view={shown} forms={forms} actor={who} /> : null}
    </>
  );
});
