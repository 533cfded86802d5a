import type { ComponentProps } from 'react';
import type { AddCombatant as AddCombatantPart } from '../../forms/AddCombatant.js';
import type { OptionsForm as OptionsFormPart } from '../../forms/OptionsForm.js';
import type { HpShownForm as HpShownFormPart } from '../../gm-tools/HpShown.js';
import type { Share as SharePart } from '../../gm-tools/Share.js';
import type { TimedEvents as TimedEventsPart } from '../../gm-tools/TimedEvents.js';
import type { LaterDice as LaterDicePart } from '../../log/DicePanel.js';
import { part } from '../lazy-parts.js';
import type { TurnNow as TurnNowPart } from '../TurnNow.js';

/** The GM's page's clock extras, each in a chunk of its own (`part`). */
export const TimedEvents = part<ComponentProps<typeof TimedEventsPart>>(() =>
  import('../../gm-tools/TimedEvents.js').then((m) => m.TimedEvents),
);
export const TurnNow = part<ComponentProps<typeof TurnNowPart>>(() =>
  import('../TurnNow.js').then((m) => m.TurnNow),
);

/**
 * The GM's tools beside the fight — adding combatants, the share links and exports, the options, how
 * HP is shown, the dice — each in a chunk of its own, drawn right after the page's first paint (the
 * headline, the cards, the palette and the timeline): they are not part of its first load.
 */
export const AddCombatant = part<ComponentProps<typeof AddCombatantPart>>(() =>
  import('../../forms/AddCombatant.js').then((m) => m.AddCombatant),
);
export const Share = part<ComponentProps<typeof SharePart>>(() =>
  import('../../gm-tools/Share.js').then((m) => m.Share),
);
export const OptionsForm = part<ComponentProps<typeof OptionsFormPart>>(() =>
  import('../../forms/OptionsForm.js').then((m) => m.OptionsForm),
);
export const HpShownForm = part<ComponentProps<typeof HpShownFormPart>>(() =>
  import('../../gm-tools/HpShown.js').then((m) => m.HpShownForm),
);
/** The dice, drawn in a deferred render of their own after a change (`LaterDice`). */
export const LaterDice = part<ComponentProps<typeof LaterDicePart>>(() =>
  import('../../log/DicePanel.js').then((m) => m.LaterDice),
);
