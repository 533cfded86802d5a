import { type EncounterView, HP_SHOWN, type HpDisplay, type HpShown } from '@roundkeeper/engine';
import { memo, useId } from 'react';
import { shownHp } from '../cards/hp-shown.js';
import { useRun } from '../store/react.js';

const WORDS: Record<HpShown, string> = {
  numbers: 'numbers (7/12)',
  descriptors: 'descriptors (unhurt, hurt, bloodied, down)',
  hidden: 'hidden',
};

/**
 * How the table and the players see PC HP and NPC HP: numbers, descriptors or hidden (`set-hp-display`,
 * redacted on the server). The GM always sees numbers, and a player their own character's.
 */
export const HpShownForm = memo(function HpShownForm({ display }: { display: EncounterView['hpDisplay'] }) {
  const run = useRun();
  const pcId = useId();
  const npcId = useId();
  const shown = shownHp(display);
  // Both sides are sent: a first choice says the other side's too, as the page showed it.
  const set = (side: keyof HpDisplay, value: HpShown) => {
    const next = { ...shown, [side]: value };
    void run(
      { type: 'set-hp-display', pc: next.pc, npc: next.npc },
      `${side.toUpperCase()} HP shown as ${value}`,
    );
  };
  const field = (side: keyof HpDisplay, id: string, label: string) => (
    <div className="row">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={shown[side]} onChange={(e) => set(side, e.currentTarget.value as HpShown)}>
        {HP_SHOWN.map((s) => (
          <option key={s} value={s}>
            {WORDS[s]}
          </option>
        ))}
      </select>
    </div>
  );
  return (
    <section className="panel" aria-label="HP for the table and players">
      <h2>HP for the table and players</h2>
      {field('pc', pcId, 'PC HP')}
      {field('npc', npcId, 'NPC HP')}
      <p className="small muted">
        You always see numbers, and each player their own character's.
        {display ? '' : ' Not chosen yet: NPC HP reads in words unless the table link asks for numbers.'}
      </p>
    </section>
  );
});
