import type { Analysis } from '@roundkeeper/engine';
import type { TempoTypes } from './types.js';

/**
 * Why `analyze` has no Tempo initiative to enumerate: 003 rolls none. Each round every character plans
 * two actions in secret and the GM counts tempo 0→9; an action happens at its tempo, PCs before NPCs.
 * Who acts first follows from the plans, not from dice: `simulate` with planning policies answers it.
 */
export const tempoAnalysis: Analysis<TempoTypes> = {
  initiative: () =>
    'Tempo rolls no initiative: each round the characters plan two actions and each happens at its tempo (0–9), PCs before NPCs at the same tempo (003). Who acts first follows from the plans; simulate it with planning policies (on: planning, command: plan).',
};
