import type { ComponentProps } from 'react';
import type { TimedEvents as TimedEventsPart } from '../../gm-tools/TimedEvents.js';
import { part } from '../lazy-parts.js';
import type { TurnNow as TurnNowPart } from '../TurnNow.js';

/** The GM's page's clock extras, each in a chunk of its own (`part`). */
export const TimedEvents = part<ComponentProps<typeof TimedEventsPart>>(() =>
  import('../../gm-tools/TimedEvents.js').then((m) => m.TimedEvents),
);
export const TurnNow = part<ComponentProps<typeof TurnNowPart>>(() =>
  import('../TurnNow.js').then((m) => m.TurnNow),
);
