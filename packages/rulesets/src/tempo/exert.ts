import {
  combatantIn,
  combatantOf,
  damaged,
  isRejection,
  type Rejection,
  reject,
  rolled,
  schedule,
  unknownCombatant,
} from '@roundkeeper/engine';
import type { TempoCommandOf } from './commands.js';
import type { TempoEventOf } from './events.js';
import { commandable, type Fact, gmOnly, planEntry } from './facts.js';
import type { ExertUse } from './options.js';
import { able, maxExertion, maxExertionText, nameOf, placePlan, running } from './rules.js';
import type { C, Ctx, State } from './types.js';

const EXERT_WHEN: Record<ExertUse, 'end-of-turn' | 'own-turn' | 'failed-roll'> = {
  'another-action': 'end-of-turn',
  'change-tempo': 'end-of-turn',
  momentum: 'own-turn',
  'clear-condition': 'own-turn',
  'reclaim-mana': 'own-turn',
  retry: 'failed-roll',
  prepared: 'own-turn',
};

/** 003 "Exert": who may, when, and the Maximum Exertion. */
export function exertLegality(state: State, c: C, use: ExertUse, amount = 1): Rejection | undefined {
  const refused = running(state) ?? able(c);
  if (refused) return refused;
  if (c.side !== 'pc')
    return reject('exert/pc-only', `${c.name} is an NPC; "PCs can choose to Exert themselves".`);
  const max = maxExertion(c);
  if (c.cs.exertion >= max) {
    return reject(
      'exert/max',
      `${c.name} is at Maximum Exertion (${maxExertionText(c)}) and cannot willingly take any more; Resting lowers it (Rest, then Recover with a Shift).`,
    );
  }
  if (c.cs.exertion + amount > max) {
    return reject(
      'exert/max',
      `${c.name} has ${c.cs.exertion} of ${max} Exertion; ${amount} more would go beyond the maximum, which no one takes willingly.`,
    );
  }
  const when = EXERT_WHEN[use];
  if (when === 'end-of-turn' && (state.rs.phase !== 'tempo' || !state.current)) {
    return reject(
      'exert/timing',
      'This Exert is done at the end of a turn, and no turn is in progress; Exert once the GM counts tempo and a turn is under way.',
    );
  }
  if (when === 'own-turn' && (state.current !== c.id || !c.cs.turn)) {
    return reject(
      'exert/timing',
      `This Exert is done during ${c.name}'s own turn; it is ${nameOf(state, state.current)}'s turn, so wait for one of ${c.name}'s planned actions.`,
    );
  }
  return undefined;
}

/** Exert: gain Exertion for one of the text's uses. */
export function decideExert(ctx: Ctx, command: TempoCommandOf<'exert'>): Fact[] | Rejection {
  const { state } = ctx;
  const c = commandable(ctx, command.actor);
  if (isRejection(c)) return c;
  const use = command.use;
  const amount = use === 'prepared' ? (command.amount ?? 1) : 1;
  if (use === 'prepared' && amount !== 1) {
    // "the GM may say this results in 1-3 Exertion"
    const gm = gmOnly(ctx, 'set how much Exertion a preparation costs');
    if (gm) return gm;
  }
  const refused = exertLegality(state, c, use, amount);
  if (refused) return refused;
  const ev: TempoEventOf<'tempo/exerted'> = {
    type: 'tempo/exerted',
    combatant: c.id,
    use,
    amount,
    exertion: c.cs.exertion + amount,
  };
  if (command.note) ev.note = command.note;
  const events: Fact[] = [ev];
  switch (use) {
    case 'change-tempo': {
      const planId = command.plan;
      const item = planId ? c.cs.plan.find((p) => p.id === planId) : undefined;
      if (!item)
        return reject(
          'exert/plan',
          `Choose which of ${c.name}'s planned actions changes tempo (Planned action).`,
        );
      if (item.taken) {
        return reject(
          'plan/taken',
          `${c.name} has already taken that action; only an action not yet taken can move to another tempo.`,
        );
      }
      const tempo = command.tempo;
      if (tempo === undefined || tempo === item.tempo) {
        return reject(
          'exert/tempo',
          `Enter the New tempo (0–9) for the action; it is at tempo ${item.tempo} now.`,
        );
      }
      const at = placePlan(state, c, tempo, c.cs.plan.indexOf(item));
      if (isRejection(at)) return at;
      ev.plan = item.id;
      ev.tempo = tempo;
      events.push(schedule(planEntry(state, c, { ...item, tempo }, at)));
      break;
    }
    case 'momentum': {
      // "Exert during your turn: Gain 1d4 Momentum."
      const roll = ctx.roll('1d4');
      ev.momentum = roll.total;
      events.unshift(rolled(c.id, 'Momentum', roll));
      break;
    }
    case 'clear-condition': {
      const effect = state.effects.find((e) => e.id === command.effect && e.target === c.id);
      if (!effect) {
        const on = state.effects.filter((e) => e.target === c.id).map((e) => `${e.name} (${e.id})`);
        return reject(
          'exert/effect',
          `Choose the Condition to clear on ${c.name} (on ${c.name}: ${on.join(', ') || 'none'}).`,
        );
      }
      ev.effect = effect.id;
      events.push({ type: 'effect/removed', effect: effect.id, name: effect.name, target: c.id });
      break;
    }
    case 'retry': {
      // "Exert when you fail a Skill roll: Retry any Skill roll." The GM judges the failure; the retry
      // is rolled here when its dice are given.
      if (command.roll) events.push(rolled(c.id, 'Skill roll (retry)', ctx.roll(command.roll)));
      break;
    }
    default:
      break;
  }
  if (use !== 'retry' && command.roll) {
    return reject('exert/roll', 'Only a retry rolls again; leave Roll again empty for this Exert.');
  }
  return events;
}

/** "If a Character is forced to take more Exertion, they die." */
export function decideForce(ctx: Ctx, command: TempoCommandOf<'force-exertion'>): Fact[] | Rejection {
  const gm = gmOnly(ctx, 'force Exertion on a character');
  if (gm) return gm;
  const c = combatantOf(ctx.state, command.actor);
  if (!c) return unknownCombatant(ctx.state, command.actor);
  if (c.cs.dead) return reject('tempo/dead', `${c.name} is already dead.`);
  const amount = command.amount;
  const max = maxExertion(c);
  const beyond = c.cs.exertion + amount > max;
  const events: Fact[] = [
    {
      type: 'tempo/exertion-forced',
      combatant: c.id,
      amount,
      exertion: Math.min(max, c.cs.exertion + amount),
      ...(command.reason ? { reason: command.reason } : {}),
    },
  ];
  if (beyond) {
    events.push({ type: 'tempo/died', combatant: c.id, reason: 'forced beyond Maximum Exertion' });
    if (c.active) events.push({ type: 'combatant/defeated', combatant: c.id });
  }
  return events;
}

/** Ends the scene: each PC who Exerted takes damage equal to their Exertion. */
export function decideEndScene(ctx: Ctx): Fact[] | Rejection {
  const gm = gmOnly(ctx, 'end the scene');
  if (gm) return gm;
  const { state } = ctx;
  const damage: Record<string, number> = {};
  const events: Fact[] = [];
  for (const id of state.roster) {
    const c = combatantIn(state, id);
    // "At the end of each Scene in which you Exerted yourself, take damage equal to your Exertion."
    if (c.side !== 'pc' || !c.cs.exertedThisScene || c.cs.exertion === 0 || c.cs.dead) continue;
    damage[id] = c.cs.exertion;
    if (c.hp) {
      const hp = damaged(c.hp, c.cs.exertion);
      events.push({ type: 'hp/changed', combatant: id, from: { ...c.hp }, hp });
    }
  }
  return [{ type: 'tempo/scene-ended', scene: state.rs.scene, damage }, ...events];
}
