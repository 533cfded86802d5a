import { useState } from 'react';
import { focusOnMount } from '../forms/focus.js';
import type { CardProps } from './CombatantCard.js';

/** The HP value, which a GM clicks to type a change: "-7" damage, "+5" heal, "12" set, "t5" temporary. */
export function HpValue({
  id,
  name,
  value,
  onHp,
}: {
  id: string;
  name: string;
  value: string;
  onHp: CardProps['onHp'];
}) {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState('');
  if (!onHp) return <>{value}</>;
  if (!editing)
    return (
      <button
        type="button"
        className="hp-value"
        aria-label={`HP of ${name}: ${value}. Change it`}
        title="Type -7 for damage, +5 to heal, 12 to set, t5 for temporary HP"
        onClick={() => {
          setText('');
          setEditing(true);
        }}
      >
        {value}
      </button>
    );
  return (
    <form
      className="hp-edit"
      onSubmit={async (e) => {
        e.preventDefault();
        if (await onHp(id, text)) setEditing(false);
      }}
    >
      <input
        ref={focusOnMount}
        aria-label={`Change ${name}'s HP: -7 damage, +5 heal, 12 set, t5 temporary`}
        className="narrow"
        value={text}
        placeholder="-7 / +5"
        onChange={(e) => setText(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') setEditing(false);
        }}
        onBlur={() => {
          if (!text.trim()) setEditing(false);
        }}
      />
    </form>
  );
}
