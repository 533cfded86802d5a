import type { Analysis } from '@roundkeeper/engine';
import type { Opend6Types } from './types.js';

/**
 * Why `analyze` has no OpenD6 initiative to enumerate: 002's Methods 2 and 3 roll Perception with the
 * Wild Die, which explodes on a 6 again and again and on a 1 may remove dice (the `complication` option,
 * the GM's call by default), and ties go through the text's steps, some of them rolled again; Method 1
 * has no roll at all (the GM sets the order). `simulate` samples it.
 */
export const opend6Analysis: Analysis<Opend6Types> = {
  initiative(state) {
    if (state.options.initiativeMethod === 'first-significant-action')
      return 'Method 1 has no roll: the GM sets the order (002), so there is nothing to enumerate.';
    return `Perception is rolled with the Wild Die, which explodes on every 6 without end and on a 1 ${state.options.complication === 'gm' ? 'does what the GM decides' : state.options.complication === 'remove-highest' ? 'removes itself and the highest die' : 'does nothing'}, and ties go through 002's tie-break steps, some rolled again; analyze has no exact distribution for that. simulate samples it (its "acts first" column).`;
  },
};
