import type { ComponentProps } from 'react';
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
