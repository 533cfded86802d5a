import {
  type AnyRuleset,
  type CommandForm as CommandFormSpec,
  commandForms,
  commandLabel,
  type EncounterView,
  paramsOfSchema,
  type Panel as RulesetPanel,
} from '@roundkeeper/engine';
import { useRef } from 'react';
import { asState, messageOf, rulesetOf } from '../model.js';
import { useRun } from '../store/react.js';
import { CommandForm } from './CommandForm.js';
import { TAKE_KEY, useTakeKey } from './take-key.js';

/** A ruleset's panel for one combatant (a declaration, a secret plan): what stands, and its form. */
export function PanelView({
  view,
  panel,
  actor,
}: {
  view: EncounterView;
  panel: RulesetPanel;
  actor: string;
}) {
  const run = useRun();
  const rs = rulesetOf(view);
  const type = panel.act ? 'act' : panel.command;
  const form = type && rs ? panelForm(rs, type) : undefined;
  // The acting combatant's planned action takes one key (`t`).
  const box = useRef<HTMLElement | null>(null);
  const takes = Boolean(panel.act && form && view.current === actor);
  useTakeKey(box, takes);
  return (
    <section ref={box} className="panel ruleset-panel" aria-label={panel.title}>
      <h2>
        {panel.title}
        {takes ? (
          <span className="muted" title="Press t to take it with what the form holds">
            {' '}
            <kbd>{TAKE_KEY}</kbd>
          </span>
        ) : null}
      </h2>
      {panel.help ? <p className="muted">{panel.help}</p> : null}
      {panel.items?.length ? (
        <ol className="plan">
          {panel.items.map((item) => (
            <li
              key={`${item.badge ?? ''}-${item.label}-${JSON.stringify(item.remove?.command ?? null)}`}
              className="row"
            >
              {item.badge ? <span className="tempo-badge">{item.badge}</span> : null}
              <span className="grow">
                <bdi>{item.label}</bdi>
                {item.done ? ' (done)' : ''}
              </span>
              {item.remove ? (
                <button
                  type="button"
                  onClick={async () => run(item.remove!.command, `${item.remove!.label}: ${item.label}`)}
                >
                  {item.remove.label}
                </button>
              ) : null}
            </li>
          ))}
        </ol>
      ) : null}
      {form ? (
        <CommandForm
          view={view}
          forms={[form]}
          actor={actor}
          title={form.label}
          bare
          {...(panel.fixed ? { fixed: panel.fixed } : {})}
        />
      ) : null}
    </section>
  );
}

/** A panel's command as a form: one of the ruleset's command forms, or its `act` (taken outside the palette). */
export function panelForm(rs: AnyRuleset, type: string): CommandFormSpec | undefined {
  const known = commandForms(rs).find((f) => f.type === type);
  if (known || !Object.hasOwn(rs.commands, type)) return known;
  const schema = rs.commands[type]!;
  const all = paramsOfSchema(schema);
  return {
    type,
    ...commandLabel(type, schema),
    forActor: all.some((p) => p.name === 'actor'),
    gm: false,
    params: all.filter((p) => p.name !== 'actor'),
  };
}

/** A ruleset's panels for a combatant, or none. */
export function panelsOf(view: EncounterView, id: string): RulesetPanel[] {
  const c = view.combatants[id];
  if (!c) return [];
  const rs = rulesetOf(view);
  try {
    return rs?.present?.panels?.(asState(view), c) ?? [];
  } catch (e) {
    // Shown as an error in a panel of its own, not replaced by no panel.
    return [
      {
        title: '⚠ Error',
        help: `${rs?.name ?? 'The ruleset'} could not work out the panels: ${messageOf(e)}`,
      },
    ];
  }
}
