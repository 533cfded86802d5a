import { api, type EncounterMeta, errorMessage, type Role, type RulesetInfo } from '../../store/api.js';
import { forgetLink, rememberLink } from '../../store/storage.js';

/** Where a listed fight stands. */
export interface Fight {
  status: string;
  round: number;
  /** Where a fight on a clock without rounds stands, in its clock's words ("Tick 7"). */
  clock?: string;
}

export type Listed = { encounter: EncounterMeta; role: Role; token: string };

function when(iso: unknown): string {
  if (typeof iso !== 'string') return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

function fightWords(f: Fight | undefined): string {
  if (!f) return '';
  if (f.status === 'setup') return 'not started';
  if (f.clock) return f.status === 'ended' ? f.clock.replace(/^Ended/, 'ended') : f.clock;
  if (f.status === 'ended') return `ended in round ${f.round}`;
  return `round ${f.round}`;
}

/** Opens a new encounter made from a scenario, remembered as the GM's. */
async function createFrom(scenario: unknown): Promise<{ id: string; token: string; name: string }> {
  const created = await api.create({ scenario });
  rememberLink({
    id: created.encounter.id,
    token: created.tokens.gm,
    name: created.encounter.name,
    role: 'gm',
  });
  return { id: created.encounter.id, token: created.tokens.gm, name: created.encounter.name };
}

/** The encounter as its scenario file, to copy it (whole, or up to before the fight). */
async function scenarioOf(e: Listed): Promise<Record<string, unknown>> {
  return JSON.parse(await api.exportScenario(e.encounter.id, e.token, 'json')) as Record<string, unknown>;
}

/**
 * The encounters this browser holds links for, newest change first: name, ruleset, role, where the fight
 * stands, when it was created and last changed. A GM can duplicate one, reset it (a copy from before the
 * fight: the roster and actions, no commands from the start on), archive it or restore it.
 */
export function EncounterList({
  items,
  infos,
  fights,
  setError,
  reload,
  testId,
}: {
  items: Listed[];
  infos: RulesetInfo[];
  fights: Record<string, Fight>;
  setError: (s: string) => void;
  reload: () => void;
  testId: string;
}) {
  const act = async (f: () => Promise<void>) => {
    setError('');
    try {
      await f();
      reload();
    } catch (err) {
      setError(errorMessage(err));
    }
  };
  return (
    <ul className="encounter-list" data-testid={testId}>
      {items.map((e) => {
        const name = e.encounter.name;
        const gm = e.role === 'gm';
        const archived = e.encounter.status === 'archived';
        return (
          <li key={`${e.encounter.id}-${e.role}`} className="encounter-item" data-encounter={e.encounter.id}>
            <div className="row">
              <a
                href={`/e/${encodeURIComponent(e.encounter.id)}?token=${encodeURIComponent(e.token)}`}
                className="grow"
              >
                <bdi>{name}</bdi>
              </a>
              <span className="muted">
                {infos.find((i) => i.id === e.encounter.ruleset)?.name ?? e.encounter.ruleset} ·{' '}
                {e.role === 'gm' ? 'GM' : e.role}
              </span>
            </div>
            <div className="row muted small">
              <span data-testid="fight">{fightWords(fights[e.token])}</span>
              <span>created {when(e.encounter.createdAt)}</span>
              <span>changed {when(e.encounter.updatedAt)}</span>
            </div>
            <div className="row">
              {gm ? (
                <>
                  <button
                    type="button"
                    aria-label={`Duplicate ${name}`}
                    onClick={() =>
                      void act(async () => {
                        const s = await scenarioOf(e);
                        await createFrom({ ...s, name: `${name} (copy)`.slice(0, 80) });
                      })
                    }
                  >
                    Duplicate
                  </button>
                  <button
                    type="button"
                    aria-label={`Reset ${name} to before the fight`}
                    title="A new copy from before the fight (new links for the players); this one is archived"
                    onClick={() =>
                      void act(async () => {
                        const s = await scenarioOf(e);
                        const steps = Array.isArray(s.commands)
                          ? (s.commands as { type?: unknown; command?: { type?: unknown } }[])
                          : [];
                        // A step holds its command under `command` (schema 2) or is the command (schema 1).
                        const start = steps.findIndex((c) => (c.command?.type ?? c.type) === 'start');
                        await createFrom({ ...s, commands: start < 0 ? steps : steps.slice(0, start) });
                        await api.patch(e.encounter.id, e.token, { status: 'archived' });
                      })
                    }
                  >
                    Reset
                  </button>
                  <button
                    type="button"
                    aria-label={`${archived ? 'Restore' : 'Archive'} ${name}`}
                    onClick={() =>
                      void act(() =>
                        api
                          .patch(e.encounter.id, e.token, { status: archived ? 'active' : 'archived' })
                          .then(() => undefined),
                      )
                    }
                  >
                    {archived ? 'Restore' : 'Archive'}
                  </button>
                </>
              ) : null}
              <button
                type="button"
                aria-label={`Forget ${name}`}
                onClick={() => {
                  forgetLink(e.token);
                  reload();
                }}
              >
                Forget
              </button>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
