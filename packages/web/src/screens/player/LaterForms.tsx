import type { AnyRuleset, CommandForm as CommandFormSpec, EncounterView } from '@roundkeeper/engine';
import { memo, useDeferredValue } from 'react';
import { Commands } from '../../commands/CommandForm.js';
import { otherForms } from '../../model.js';
import { OwnConditions } from './lazy.js';

/** The player's forms of a ruleset but those its panels hold (`inPanels`: their commands, one a line), kept. */
const besides = new WeakMap<AnyRuleset, Map<string, CommandFormSpec[]>>();
export function formsBesides(rs: AnyRuleset, inPanels: string): CommandFormSpec[] {
  let byPanels = besides.get(rs);
  if (!byPanels) {
    byPanels = new Map();
    besides.set(rs, byPanels);
  }
  let forms = byPanels.get(inPanels);
  if (!forms) {
    const held = inPanels.split('\n');
    forms = otherForms(rs, true).filter((f) => !held.includes(f.type));
    byPanels.set(inPanels, forms);
  }
  return forms;
}

/**
 * A player's own conditions and other commands, below the fold of a phone: they follow a change one render
 * later, in an interruptible render of their own (as the log does), so the headline, the palette and the
 * character's card are committed and laid out first. This part holds the deferred copies itself: the
 * screen is not drawn a second time for them.
 */
export const LaterForms = memo(function LaterForms({
  view,
  actor,
  forms,
  allowed,
}: {
  view: EncounterView;
  actor: string;
  forms: CommandFormSpec[];
  allowed: readonly string[];
}) {
  const v = useDeferredValue(view);
  // The character follows the view it came with: deferred with a change of the fight, at once when the
  // player picks another of theirs.
  const later = useDeferredValue(actor);
  const a = v === view ? actor : later;
  const canAdd = allowed.includes('add-effect');
  const canRemove = allowed.includes('remove-effect');
  return (
    <>
      {canAdd || canRemove ? (
        <OwnConditions view={v} actor={a} canAdd={canAdd} canRemove={canRemove} />
      ) : null}
      {forms.length ? <Commands view={v} forms={forms} actor={a} /> : null}
    </>
  );
});
