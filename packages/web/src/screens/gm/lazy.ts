import type { ComponentProps } from 'react';
import type { TimedEvents as TimedEventsPart } from '../../gm-tools/TimedEvents.js';
import type { FiredLine as FiredLinePart } from '../../timeline/FiredLine.js';
import { part } from '../lazy-parts.js';

/** The GM's page's clock extras, each in a chunk of its own (`part`). */
export const TimedEvents = part<ComponentProps<typeof TimedEventsPart>>(() =>
  import('../../gm-tools/TimedEvents.js').then((m) => m.TimedEvents),
);
export const FiredLine = part<ComponentProps<typeof FiredLinePart>>(() =>
  import('../../timeline/FiredLine.js').then((m) => m.FiredLine),
);
