import { useId, useLayoutEffect, useRef, useState } from 'react';
import { useRun } from '../../store/react.js';

/** What a GM's key asked about the selected combatant: how much damage or healing, or whether to remove. */
export interface Prompt {
  kind: 'damage' | 'heal' | 'remove';
  id: string;
  name: string;
}

const TITLE = {
  damage: (name: string) => `Damage to ${name}`,
  heal: (name: string) => `Healing for ${name}`,
  remove: (name: string) => `Remove ${name} from the fight?`,
};

/**
 * The small dialog a key opens (`d` damage, `h` heal, `x` remove): an amount and Enter, or Remove / Keep;
 * Escape closes it. It takes the focus, and gives it back when it closes.
 */
export function KeyPrompt({ prompt, onClose }: { prompt: Prompt; onClose: () => void }) {
  const run = useRun();
  const [amount, setAmount] = useState('');
  const first = useRef<HTMLInputElement & HTMLButtonElement>(null);
  const titleId = useId();
  const amountId = useId();
  useLayoutEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    first.current?.focus();
    return () => before?.focus?.();
  }, []);
  const { kind, id, name } = prompt;
  const n = Math.floor(Number(amount));
  const valid = amount.trim() !== '' && Number.isFinite(n) && n > 0;
  const send = async () => {
    if (kind === 'remove') {
      onClose();
      await run({ type: 'remove-combatant', combatant: id }, `${name} removed (Undo brings them back)`);
      return;
    }
    if (!valid) return;
    const what = kind === 'damage' ? `${n} damage to ${name}` : `${name} healed ${n}`;
    if ((await run({ type: kind, combatant: id, amount: n }, what)).ok) onClose();
  };
  return (
    <div className="overlay" role="dialog" aria-modal="true" aria-labelledby={titleId}>
      <form
        className="dialog key-prompt"
        onSubmit={(e) => {
          e.preventDefault();
          void send();
        }}
      >
        <h2 id={titleId}>{TITLE[kind](name)}</h2>
        {kind === 'remove' ? (
          <p className="muted">Undo brings them back.</p>
        ) : (
          <div className="row">
            <label htmlFor={amountId}>Amount</label>
            <input
              id={amountId}
              ref={first}
              type="number"
              min={1}
              step={1}
              className="narrow"
              value={amount}
              onChange={(e) => setAmount(e.currentTarget.value)}
            />
          </div>
        )}
        <div className="row">
          <button
            type="submit"
            className={kind === 'remove' ? 'danger' : 'primary'}
            ref={kind === 'remove' ? first : undefined}
            disabled={kind !== 'remove' && !valid}
          >
            {kind === 'damage' ? 'Damage' : kind === 'heal' ? 'Heal' : `Remove ${name}`}
          </button>
          <button type="button" onClick={onClose}>
            {kind === 'remove' ? 'Keep' : 'Cancel'}
          </button>
        </div>
      </form>
    </div>
  );
}
