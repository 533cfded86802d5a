import { memo } from 'react';
import { useRun } from '../../store/react.js';

/**
 * The top bar's End the fight: one click must not end a fight by accident, so the GM confirms first (and
 * Undo still restores an ended fight).
 */
export const EndFight = memo(function EndFight({ running }: { running: boolean }) {
  const run = useRun();
  return (
    <button
      type="button"
      onClick={() => {
        if (window.confirm('End the fight? Nobody acts after this; Undo restores it.'))
          void run({ type: 'end' }, 'end the fight (Undo restores it)');
      }}
      disabled={!running}
      title="The fight is over (Undo takes it back)"
    >
      End the fight
    </button>
  );
});
