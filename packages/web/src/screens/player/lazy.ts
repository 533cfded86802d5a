import type { ComponentProps } from 'react';
import type { FiredLine as FiredLinePart } from '../../timeline/FiredLine.js';
import type { TimelineView as TimelineViewPart } from '../../timeline/TimelineView.js';
import { part } from '../lazy-parts.js';
import type { TurnTimer as TurnTimerPart } from '../TurnTimer.js';
import type { OwnConditions as OwnConditionsPart } from './OwnConditions.js';

/** The player's turn timer, in a chunk of its own (`part`). */
export const TurnTimer = part<ComponentProps<typeof TurnTimerPart>>(() =>
  import('../TurnTimer.js').then((m) => m.TurnTimer),
);

/** The timed events that fired as this turn began (name and moment), in a chunk of its own. */
export const FiredLine = part<ComponentProps<typeof FiredLinePart>>(() =>
  import('../../timeline/FiredLine.js').then((m) => m.FiredLine),
);

/** The player's own conditions, drawn only where the GM lets players set them: in a chunk of its own. */
export const OwnConditions = part<ComponentProps<typeof OwnConditionsPart>>(() =>
  import('./OwnConditions.js').then((m) => m.OwnConditions),
);

/** The round's timeline, last on the player's page (under everyone's list): in a chunk of its own. */
export const TimelineView = part<ComponentProps<typeof TimelineViewPart>>(() =>
  import('../../timeline/TimelineView.js').then((m) => m.TimelineView),
);
