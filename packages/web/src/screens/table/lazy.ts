import type { ComponentProps } from 'react';
import type { FiredLine as FiredLinePart } from '../../timeline/FiredLine.js';
import { part } from '../lazy-parts.js';

/** The table screen's clock extras, each in a chunk of its own (`part`). */
export const FiredLine = part<ComponentProps<typeof FiredLinePart>>(() =>
  import('../../timeline/FiredLine.js').then((m) => m.FiredLine),
);
