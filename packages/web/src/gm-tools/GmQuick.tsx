import type { Combatant, Command, EncounterView } from '@roundkeeper/engine';
import { memo, Suspense, useCallback, useId, useState } from 'react';
import { DurationField, StableInput } from '../forms/DurationField.js';
import { durationOf, type RawForm } from '../forms/form.js';
import { conditionsOf } from '../model.js';
import { lazy } from '../screens/lazy-parts.js';
import { useRun, useStore } from '../store/react.js';

// The editor loads when "Edit or remove" is first opened.
const CombatantEditor = lazy(() =>
  import('./CombatantEditor.js').then((m) => ({ default: m.CombatantEditor })),
);

export const GmQuick = memo(function GmQuick({
  view,
  c,
  actor,
}: {
  view: EncounterView;
  c: Combatant;
  actor: string;
}) {
  const { run, tell: notify } = useStore();
  const [amount, setAmount] = useState('');
  const [effect, setEffect] = useState('');
  const [source, setSource] = useState('');
  const [duration, setDuration] = useState<RawForm>({
    'd.kind': 'turn-start',
    'd.count': '1',
    'd.combatant': actor,
  });
  const [confirm, setConfirm] = useState(false);
  const [editorOpen, setEditorOpen] = useState(false);
  // The editor is built when first opened for this combatant and kept while it is folded again (what was
  // typed stays), so a turn that passes builds no hidden form.
  const [editorBuilt, setEditorBuilt] = useState(false);
  // The tools stay mounted when the turn passes to another combatant: what was typed for the last one
  // starts over, as a fresh form would, without building the section again.
  const [shownFor, setShownFor] = useState(actor);
  if (shownFor !== actor) {
    setShownFor(actor);
    setAmount('');
    setEffect('');
    setSource('');
    setDuration({ 'd.kind': 'turn-start', 'd.count': '1', 'd.combatant': actor });
    setConfirm(false);
    setEditorOpen(false);
    setEditorBuilt(false);
  }
  const setDurationPart = useCallback(
    (key: string, value: string | boolean) => setDuration((d) => ({ ...d, [key]: value })),
    [],
  );
  const effectId = useId();
  const sourceId = useId();
  const go = async (cmd: Command, what: string) => (await run(cmd, what)).ok;
  return (
    <section className="panel gm-tools" aria-label={`GM tools for ${c.name}`}>
      {/* The column's sticky line names whom the tools are for: a turn that passes rewrites no heading here. */}
      <h2>GM tools</h2>
      <HpTools c={c} actor={actor} amount={amount} setAmount={setAmount} />
      <form
        className="condition-form"
        aria-label={`Add a condition to ${c.name}`}
        onSubmit={async (e) => {
          e.preventDefault();
          const d = durationOf(duration, 'd', { round: view.round, actor });
          if (typeof d === 'string') return notify({ ok: false, error: d }, 'condition');
          const cmd: Command = { type: 'add-effect', target: actor, name: effect.trim(), duration: d };
          if (source && view.combatants[source]) cmd.source = source;
          if (await go(cmd, `${effect.trim()} on ${c.name}`)) {
            setEffect('');
            setSource('');
          }
        }}
      >
        <div className="row">
          <label htmlFor={effectId}>Condition</label>
          <StableInput id={effectId} value={effect} placeholder="Frightened" onValue={setEffect} />
          <button type="submit" disabled={!effect.trim()}>
            Add condition
          </button>
        </div>
        <div className="row">
          <label htmlFor={sourceId}>Caused by</label>
          <select id={sourceId} value={source} onChange={(e) => setSource(e.currentTarget.value)}>
            <option value="">—</option>
            {view.roster
              .filter((id) => view.combatants[id])
              .map((id) => (
                <option key={id} value={id}>
                  {view.combatants[id]!.name}
                </option>
              ))}
          </select>
        </div>
        <DurationField label="Lasts" k="d" raw={duration} set={setDurationPart} view={view} />
      </form>
      <ConditionList view={view} id={actor} />
      <details
        className="editor"
        open={editorOpen}
        onToggle={(e) => {
          const open = e.currentTarget.open;
          setEditorOpen(open);
          if (open) setEditorBuilt(true);
        }}
      >
        <summary>Edit or remove</summary>
        {editorBuilt || editorOpen ? (
          <Suspense fallback={null}>
            <CombatantEditor key={actor} view={view} c={c} />
          </Suspense>
        ) : null}
        <div className="row">
          {confirm ? (
            <>
              <button
                type="button"
                className="danger"
                onClick={() => void go({ type: 'remove-combatant', combatant: actor }, `${c.name} removed`)}
              >
                Remove {c.name} for good
              </button>
              <button type="button" onClick={() => setConfirm(false)}>
                Keep
              </button>
            </>
          ) : (
            <button type="button" onClick={() => setConfirm(true)}>
              Remove from the fight…
            </button>
          )}
        </div>
      </details>
    </section>
  );
});

/** Damage, healing, temporary HP and defeat for the combatant the tools are for (its amount kept by GmQuick). */
function HpTools({
  c,
  actor,
  amount,
  setAmount,
}: {
  c: Combatant;
  actor: string;
  amount: string;
  setAmount: (value: string) => void;
}) {
  const run = useRun();
  const amountId = useId();
  const n = Math.floor(Number(amount));
  const valid = amount.trim() !== '' && Number.isFinite(n) && n > 0;
  const go = (cmd: Command, what: string) => run(cmd, what);
  return (
    <div className="row">
      <label htmlFor={amountId}>Amount</label>
      <StableInput
        id={amountId}
        type="number"
        min={1}
        value={amount}
        onValue={setAmount}
        className="narrow"
      />
      <button
        type="button"
        disabled={!valid}
        onClick={() => void go({ type: 'damage', combatant: actor, amount: n }, `${n} damage to ${c.name}`)}
      >
        Damage
      </button>
      <button
        type="button"
        disabled={!valid}
        onClick={() => void go({ type: 'heal', combatant: actor, amount: n }, `${c.name} healed ${n}`)}
      >
        Heal
      </button>
      <button
        type="button"
        disabled={!valid}
        onClick={() =>
          void go({ type: 'set-hp', combatant: actor, temp: n }, `${c.name} has ${n} temporary HP`)
        }
      >
        Temp HP
      </button>
      <button
        type="button"
        onClick={() =>
          void go(
            { type: c.active ? 'defeat' : 'revive', combatant: actor },
            c.active ? `${c.name} defeated` : `${c.name} back in the fight`,
          )
        }
      >
        {c.active ? 'Defeat' : 'Revive'}
      </button>
    </div>
  );
}

/** The conditions on a combatant with their time left, each with a button that ends it now. */
export function ConditionList({ view, id }: { view: EncounterView; id: string }) {
  const run = useRun();
  const conds = conditionsOf(view, id);
  if (!conds.length) return null;
  return (
    <ul className="condition-list">
      {conds.map((k) => (
        <li key={k.id} className="row">
          <span className="grow">
            <strong>
              <bdi>{k.name}</bdi>
            </strong>{' '}
            <span className="muted">{k.remaining}</span>
          </span>
          <button
            type="button"
            aria-label={`End ${k.name}`}
            onClick={async () => run({ type: 'remove-effect', effect: k.id }, `${k.name} ended`)}
          >
            End
          </button>
        </li>
      ))}
    </ul>
  );
}
