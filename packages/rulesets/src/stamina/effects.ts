import { type CoreEvent, combatantIn, type Duration, isRejection, rolled } from '@roundkeeper/engine';
import type { ActCommand } from './commands.js';
import type { EffectData } from './conditions.js';
import type { StaminaEvent } from './events.js';
import { refsOf } from './options.js';
import type { Ctx, State } from './types.js';

/** What a stamina decision records: the engine's events and the ruleset's own. */
export type Fact = CoreEvent | StaminaEvent;

/** How an Aim's effect is named: "Aim at Bren" (views of the hidden read it as a plain Aim). */
export const AIM_AT = 'Aim at ';

/** An engine effect whose expiry the engine resolves the same way as its own `add-effect`. */
export function effect(
  ctx: Ctx,
  target: string,
  name: string,
  duration: Duration,
  data: EffectData,
  source?: string,
): Fact {
  const expires = ctx.expiry(duration);
  return {
    type: 'effect/added',
    effect: {
      id: ctx.newId('fx'),
      name,
      target,
      duration,
      expires: isRejection(expires) ? { on: 'never' } : expires,
      data,
      ...(source ? { source } : {}),
    },
  };
}

/** Successes of a check: the GM's number, or rolled with the `successDice` option. */
export function successes(
  ctx: Ctx,
  actor: string,
  purpose: string,
  entered: ActCommand['check'],
): { n: number; events: Fact[] } {
  if (entered) return { n: entered.successes, events: [] };
  const c = combatantIn(ctx.state, actor);
  const roll = ctx.roll(ctx.state.options.successDice, refsOf(c.stats));
  return { n: Math.max(0, roll.total), events: [rolled(actor, purpose, roll)] };
}

export const untilNextTurn = (who: string): Duration => ({ kind: 'until-turn-start', combatant: who });

/** Defense a character loses: never below zero unless the GM allows negative resources. */
export function lost(state: State, who: string, amount: number): number {
  if (state.options.allowNegative) return amount;
  return Math.max(0, Math.min(amount, combatantIn(state, who).cs.defense));
}

/** Stamina and defense regained: never above the sheet's stamina and defense. */
export function regained(state: State, who: string, stamina: number, defense: number, reason: string): Fact {
  const c = combatantIn(state, who);
  const s = Math.max(0, Math.min(stamina, c.stats.stamina - c.cs.stamina));
  const d = Math.max(0, Math.min(defense, c.stats.defense - c.cs.defense));
  return { type: 'stamina/resources', combatant: who, stamina: s, defense: d, reason };
}
