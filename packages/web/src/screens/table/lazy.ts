import type { ComponentProps } from 'react';
import type { TimelineView as TimelineViewPart } from '../../timeline/TimelineView.js';
import { part } from '../lazy-parts.js';
import type { NextRound as NextRoundPart } from '../NextRound.js';
import type { TurnNow as TurnNowPart } from '../TurnNow.js';

/** The table screen's clock extras, each in a chunk of its own (`part`). */
export const TurnNow = part<ComponentProps<typeof TurnNowPart>>(() =>
  import('../TurnNow.js').then((m) => m.TurnNow),
);
export const NextRound = part<ComponentProps<typeof NextRoundPart>>(() =>
  import('../NextRound.js').then((m) => m.NextRound),
);

/**
 * The table's timeline (this round's picture under the order), in a chunk of its own: the table's first
 * paint is its headline, who is next and the order; the picture follows as soon as its chunk is here.
 */
export const TimelineView = part<ComponentProps<typeof TimelineViewPart>>(() =>
  import('../../timeline/TimelineView.js').then((m) => m.TimelineView),
);
