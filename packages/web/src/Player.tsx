import type { EncounterView, LogEntry } from '@roundkeeper/engine';
import { useId, useState } from 'react';
import { actorCommands, rulesetOf } from './model.js';
import {
  CombatantCard,
  CommandForm,
  ConnectionBadge,
  Headline,
  LogView,
  Palette,
  type Send,
  Status,
  TimelineView,
  useNotifier,
} from './parts.js';

interface PlanLike {
  id: string;
  action: string;
  tempo: number;
  taken: boolean;
}

/** The player's controller: phone-sized, only their own characters, live. */
export function Player({
  view,
  mine,
  entries,
  send,
  connected,
}: {
  view: EncounterView;
  mine: string[];
  entries: LogEntry[];
  send: Send;
  connected: boolean;
}) {
  const rs = rulesetOf(view);
  const own = mine.filter((id) => view.combatants[id]);
  const [picked, setPicked] = useState<string | null>(null);
  const actor =
    picked && own.includes(picked) ? picked : (own.find((id) => id === view.current) ?? own[0] ?? null);
  const { message, notify } = useNotifier();
  const [declare, setDeclare] = useState('1');
  const declareId = useId();
  const c = actor ? view.combatants[actor] : undefined;
  const plan = ((c?.cs as { plan?: PlanLike[] } | undefined)?.plan ?? []) as PlanLike[];
  const extra = rs ? actorCommands(rs).filter((t) => t !== 'declare') : [];
  return (
    <main className="player">
      <header className="topbar">
        <h1>{view.name}</h1>
        <ConnectionBadge connected={connected} />
      </header>
      <Headline view={view} />
      <Status message={message} />
      {own.length > 1 ? (
        <fieldset className="row">
          <legend>Your characters</legend>
          {own.map((id) => (
            <button key={id} type="button" aria-pressed={id === actor} onClick={() => setPicked(id)}>
              {view.combatants[id]!.name}
            </button>
          ))}
        </fieldset>
      ) : null}
      {actor && c ? (
        <>
          <ul className="cards">
            <CombatantCard view={view} id={actor} gm={false} selected current={actor === view.current} />
          </ul>
          {view.current === actor ? (
            <button
              type="button"
              className="primary wide-button"
              onClick={async () => notify(await send({ type: 'next' }), 'end turn')}
            >
              End my turn
            </button>
          ) : null}
          {view.ruleset === 'opend6' ? (
            <section className="panel" aria-label="Declare actions">
              <h2>Declare actions</h2>
              <div className="row">
                <label htmlFor={declareId}>Actions this round</label>
                <input
                  id={declareId}
                  type="number"
                  min={1}
                  max={10}
                  className="narrow"
                  value={declare}
                  onChange={(e) => setDeclare(e.currentTarget.value)}
                />
                <button
                  type="button"
                  onClick={async () =>
                    notify(
                      await send({ type: 'declare', actor, actions: Math.max(1, Number(declare) || 1) }),
                      'declare',
                    )
                  }
                >
                  Declare
                </button>
              </div>
            </section>
          ) : null}
          {view.ruleset === 'tempo' ? (
            <section className="panel" aria-label="Tempo plan">
              <h2>My plan</h2>
              {plan.length ? (
                <ol className="plan">
                  {plan.map((p) => (
                    <li key={p.id} className="row">
                      <span className="tempo-badge">tempo {p.tempo}</span>
                      <span className="grow">
                        {rs?.catalog(view as never).find((a) => a.id === p.action)?.name ?? p.action}
                        {p.taken ? ' (taken)' : ''}
                      </span>
                      {!p.taken ? (
                        <button
                          type="button"
                          onClick={async () =>
                            notify(await send({ type: 'unplan', actor, plan: p.id }), 'unplan')
                          }
                        >
                          Withdraw
                        </button>
                      ) : null}
                    </li>
                  ))}
                </ol>
              ) : (
                <p className="muted">Nothing planned yet: pick actions below.</p>
              )}
              {view.current === actor ? (
                <button
                  type="button"
                  className="primary"
                  onClick={async () => notify(await send({ type: 'act', actor }), 'act')}
                >
                  Take my action
                </button>
              ) : null}
            </section>
          ) : null}
          <Palette view={view} actor={actor} send={send} notify={notify} compact />
          {extra.length ? (
            <CommandForm key={actor} view={view} types={extra} actor={actor} send={send} notify={notify} />
          ) : null}
        </>
      ) : (
        <p className="muted">No character of yours is in this encounter.</p>
      )}
      <TimelineView view={view} highlight={actor} exportable={false} maxRounds={1} />
      <LogView view={view} entries={entries} limit={15} />
    </main>
  );
}
