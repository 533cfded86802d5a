import type { ComponentProps } from 'react';
import { part } from '../lazy-parts.js';
import type { TurnTimer as TurnTimerPart } from '../TurnTimer.js';

/** The player's turn timer, in a chunk of its own (`part`). */
export const TurnTimer = part<ComponentProps<typeof TurnTimerPart>>(() =>
  import('../TurnTimer.js').then((m) => m.TurnTimer),
);
