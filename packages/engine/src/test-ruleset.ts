import { z } from 'zod';
import { reach, schedule } from './agenda.js';
import { namedId } from './events.js';
import type { Ruleset } from './ruleset.js';
import type { AgendaEntry, EngineEvent } from './types.js';
import { reject } from './types.js';

/**
 * A minimal ruleset for the engine's own tests: turns in roster order, a clock of turn slots, one
 * command that rolls dice. Not shipped (excluded from the build by its name).
 */
export const roundRobin: Ruleset = {
  id: 'round-robin',
  version: 1,
  name: 'Round robin',
  summary: 'Turns in the order combatants were added.',
  optionsSchema: z.object({ dice: z.string().default('1d6') }),
  statsSchema: z.object({ bonus: z.number().int().default(0) }),
  commands: { start: z.object({}), next: z.object({}), roll: z.object({ actor: z.string() }) },
  events: {
    /** A combatant's roll. */
    'rr/rolled': z.object({ combatant: namedId(), total: z.number(), faces: z.array(z.number()) }),
    /** Tied combatants rolled again (the redaction tests send it by hand). */
    'rr/roll-off': z.object({ combatants: z.array(namedId()), rolls: z.array(z.number()) }),
  },
  clock: {
    unit: 'slot',
    describe: (_s, at) => `Round ${at.round} · slot ${at.at[0] ?? 0}`,
    after: (state, from, amount) => {
      const n = Math.max(state.roster.length, 1);
      const pos = (from.at[0] ?? 0) + amount;
      return { round: from.round + Math.floor(pos / n), at: [pos % n] };
    },
  },
  init: () => ({}),
  initCombatant: () => ({ rolled: 0 }),
  catalog: () => [],
  decide(ctx, command) {
    const { state } = ctx;
    const roundEvents = (round: number): EngineEvent[] => {
      const entries: AgendaEntry[] = state.roster.map((id, i) => ({
        id: ctx.newId('t'),
        at: { round, at: [i] },
        kind: 'turn',
        combatant: id,
        label: id,
      }));
      return [
        { type: 'round/started', round },
        ...entries.map(schedule),
        ...(entries[0] ? reach(entries[0]) : []),
      ];
    };
    switch (command.type) {
      case 'start':
        if (state.status !== 'setup') return reject('encounter/started', 'Already started.');
        return [{ type: 'encounter/started' }, ...roundEvents(1)];
      case 'next': {
        const out: EngineEvent[] = state.current ? [{ type: 'turn/ended', combatant: state.current }] : [];
        const next = state.agenda.find((e) => e.kind === 'turn');
        if (next) return [...out, ...reach(next)];
        return [...out, { type: 'round/ended', round: state.round }, ...roundEvents(state.round + 1)];
      }
      case 'roll': {
        const roll = ctx.roll(String(state.options.dice));
        return [
          { type: 'rr/rolled', combatant: command.actor as string, total: roll.total, faces: roll.faces },
        ];
      }
      default:
        return reject('command/unknown', 'Unknown.');
    }
  },
  evolve(state, event) {
    if (event.type !== 'rr/rolled') return undefined;
    const id = event.combatant as string;
    const c = state.combatants[id];
    if (!c) return state;
    return {
      ...state,
      combatants: { ...state.combatants, [id]: { ...c, cs: { rolled: event.total as number } } },
    };
  },
  legalActions: () => [],
  timeline: () => ({ axis: { unit: 'slot', from: 1, to: 1 }, rounds: [], now: null, lanes: [] }),
};
