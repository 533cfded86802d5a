import {
  compareInstants,
  isRejection,
  notRunning,
  type Rejection,
  reject,
  schedule,
  unschedule,
} from '@roundkeeper/engine';
import { findAction } from './catalog.js';
import type { TempoCommandOf } from './commands.js';
import { exertLegality } from './exert.js';
import { commandable, type Fact, planEntry } from './facts.js';
import { placePlan, planLegality, sideIndex } from './rules.js';
import type { Ctx, PlanItem } from './types.js';

/** Plans (or, replacing one, changes) one of the round's actions; secret until taken. */
export function decidePlan(ctx: Ctx, command: TempoCommandOf<'plan'>): Fact[] | Rejection {
  const { state } = ctx;
  const c = commandable(ctx, command.actor);
  if (isRejection(c)) return c;
  const def = findAction(state, c, command.action);
  if (!def) {
    return reject('action/unknown', `"${command.action}" is not an action ${c.name} has.`, {
      action: command.action,
    });
  }
  const replaceId = command.replace;
  const replace = replaceId ? c.cs.plan.find((p) => p.id === replaceId) : undefined;
  if (replaceId && !replace) {
    return reject('plan/unknown', `${c.name} has no planned action "${replaceId}" this round.`);
  }
  const legal = planLegality(state, c, def, {
    slot: command.slot,
    replace,
    tempo: command.tempo,
    strike: command.strike,
    spell: command.spell,
  });
  if (isRejection(legal)) return legal;
  const item: PlanItem = {
    id: replace?.id ?? ctx.newId('plan'),
    slot: legal.slot,
    action: def.id,
    tempo: legal.tempo,
    taken: false,
  };
  // A changed Magic plan that names no spell keeps the spell it replaces.
  const spell = command.spell ?? (replace?.action === def.id ? replace.spell : undefined);
  if (spell) item.spell = spell;
  if (command.strike) item.strike = true;
  return [
    {
      type: 'tempo/planned',
      combatant: c.id,
      plan: item,
      ...(replace ? { replaces: replace.id } : {}),
    },
    schedule(planEntry(state, c, item, legal.at)),
  ];
}

/**
 * 003: "the GM counts from 0 to 9, and players can inform the GM they are taking an action at that
 * Tempo" — the text orders only PCs before NPCs, so within a side the table chooses. The character's
 * action at the tempo the count comes to next moves ahead of the others of their side there (they
 * follow it in their previous order).
 */
export function decideActNext(ctx: Ctx, command: TempoCommandOf<'act-next'>): Fact[] | Rejection {
  const { state } = ctx;
  const c = commandable(ctx, command.actor);
  if (isRejection(c)) return c;
  const stopped = notRunning(state);
  if (stopped) return stopped;
  if (c.cs.dead || !c.active)
    return reject('combatant/defeated', `${c.name} is out of the fight and takes no more turns.`);
  const turns = state.agenda.filter((e) => e.kind === 'turn' && e.at.round === state.round);
  const next = turns[0];
  if (!next) {
    return reject(
      'order/nothing-planned',
      `No planned action is left this round; ${c.name} acts again after the next planning phase.`,
    );
  }
  // A turn's instant is [tempo, side, order…].
  const [tempo, side] = next.at.at;
  if (tempo === undefined || side === undefined)
    throw new Error(`The planned turn "${next.id}" has no tempo on the count.`);
  const part = side === 0 ? 'PCs' : 'NPCs';
  const own = turns.find((e) => e.combatant === c.id && e.at.at[0] === tempo && e.at.at[1] === side);
  if (!own) {
    const why =
      (c.side === 'pc' ? 0 : 1) !== side
        ? `the next turns are the ${part}' at tempo ${tempo}, and ${c.name} is not one of the ${part}`
        : `${c.name} has no action still to take at tempo ${tempo}, where the count goes next`;
    // The way there is offered only when it leads there: an action placed at that tempo now must come on
    // the character's own side of it (act-next then puts it first), or before the next turns — a PC's part
    // of a tempo already over, or an NPC's part that comes after the PCs', is no way to take the next turn.
    const placed = placePlan(state, c, tempo, 0);
    const reachable = !isRejection(placed) && (sideIndex(c) === side || compareInstants(placed, next.at) < 0);
    const left = c.cs.plan.some((p) => !p.taken);
    const exert = (use: 'change-tempo' | 'another-action') => exertLegality(state, c, use) === undefined;
    const wait = `wait for the count to reach ${c.name}'s action`;
    let advice: string;
    if (left) {
      advice = reachable
        ? `Change a planned action to one at tempo ${tempo}${exert('change-tempo') ? ' (or Exert to move one there)' : ''}, or ${wait}`
        : `${wait.charAt(0).toUpperCase()}${wait.slice(1)}`;
    } else {
      advice = `${c.name} has no planned action left this round${reachable && exert('another-action') ? `; Exert to take another action at tempo ${tempo}` : ''}`;
    }
    return reject('order/not-next', `${c.name} cannot take the next turn: ${why}. ${advice}.`);
  }
  const ahead = turns.filter(
    (e) => e.at.at[0] === tempo && e.at.at[1] === side && compareInstants(e.at, own.at) < 0,
  );
  return [
    { type: 'tempo/acts-next', combatant: c.id, tempo },
    // The others keep their order among themselves, right after this character's action.
    ...ahead.map((e) =>
      schedule({ ...e, at: { round: e.at.round, at: [...own.at.at, 1, ...e.at.at.slice(2)] } }),
    ),
  ];
}

/** Withdraws a planned action not yet taken. */
export function decideUnplan(ctx: Ctx, command: TempoCommandOf<'unplan'>): Fact[] | Rejection {
  const c = commandable(ctx, command.actor);
  if (isRejection(c)) return c;
  const item = c.cs.plan.find((p) => p.id === command.plan);
  if (!item) return reject('plan/unknown', `${c.name} has no planned action "${command.plan}" this round.`);
  if (item.taken)
    return reject('plan/taken', `${c.name} has already taken that action; it cannot be withdrawn.`);
  return [{ type: 'tempo/unplanned', combatant: c.id, plan: item.id }, unschedule(item.id, 'withdrawn')];
}
