import type { ComponentProps } from 'react';
import type { FiredLine as FiredLinePart } from '../../timeline/FiredLine.js';
import { part } from '../lazy-parts.js';
import type { TurnTimer as TurnTimerPart } from '../TurnTimer.js';

/** The player's turn timer, in a chunk of its own (`part`). */
export const TurnTimer = part<ComponentProps<typeof TurnTimerPart>>(() =>
  import('../TurnTimer.js').then((m) => m.TurnTimer),
);

/** The timed events that fired as this turn began (name and moment), in a chunk of its own. */
export const FiredLine = part<ComponentProps<typeof FiredLinePart>>(() =>
  import('../../timeline/FiredLine.js').then((m) => m.FiredLine),
);
