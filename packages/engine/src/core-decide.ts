import type { z } from 'zod';
import { type CoreCommand, type combatantInputSchema, explainZodError, unknownOptions } from './commands.js';
import type { CoreEvent } from './events.js';
import { damaged, setHp } from './hp.js';
import { describeHpDisplay, hpDisplayOf } from './hp-display.js';
import { distinctName, firstFree, slugOf } from './ids.js';
import { unknownCombatant, unknownStats } from './refusals.js';
import { type AnyRuleset, combatantOf, type DecideContext, type Decision } from './ruleset.js';
import type { TimedEvent } from './timed.js';
import {
  type Combatant,
  type Duration,
  type Effect,
  type EffectExpiry,
  type EncounterState,
  type HitPoints,
  isRejection,
  type Rejection,
  reject,
} from './types.js';

type CombatantInput = z.output<typeof combatantInputSchema>;

/** The names of the combatants in the encounter, but `except`. */
function namesIn(state: EncounterState, except?: string): string[] {
  return Object.values(state.combatants)
    .filter((c) => c.id !== except)
    .map((c) => c.name);
}

/**
 * Builds a combatant from GM input, validating the stats with the ruleset's schema. Its name is the one
 * it will keep: `distinctName` of the name asked for, so the event carries the final name.
 */
export function buildCombatant(
  state: EncounterState,
  ruleset: AnyRuleset,
  input: CombatantInput,
): Combatant | Rejection {
  if (input.id && Object.hasOwn(state.combatants, input.id)) {
    return reject(
      'combatant/duplicate',
      `A combatant with id "${input.id}" is already in the encounter; pick another id.`,
    );
  }
  const unknown = unknownStats(ruleset, input.stats ?? {}, input.name);
  if (unknown) return unknown;
  const stats = ruleset.statsSchema.safeParse(input.stats ?? {});
  if (!stats.success) {
    return reject(
      'combatant/invalid-stats',
      explainZodError(stats.error, `sheet of ${input.name} for ${ruleset.name}`, ruleset.statsSchema),
    );
  }
  const hp: HitPoints | undefined =
    input.hp === undefined
      ? undefined
      : typeof input.hp === 'number'
        ? { current: input.hp, max: input.hp, temp: 0 }
        : setHp(undefined, input.hp, ruleset.negativeHp === true);
  const c: Combatant = {
    id: input.id ?? firstFree(slugOf(input.name, 'combatant'), (id) => Object.hasOwn(state.combatants, id)),
    name: distinctName(input.name, namesIn(state)),
    side: input.side,
    hidden: input.hidden,
    stats: stats.data,
    cs: ruleset.initCombatant(stats.data, state.options),
    turnsStarted: 0,
    turnsEnded: 0,
    active: true,
  };
  if (hp) c.hp = hp;
  if (input.player) c.player = input.player;
  if (input.group) c.group = input.group;
  if (input.notes) c.notes = input.notes;
  return c;
}

/** Turns a duration into the fact that ends it, measured from now. */
export function resolveExpiry(
  state: EncounterState,
  ruleset: AnyRuleset,
  duration: Duration,
): EffectExpiry | Rejection {
  switch (duration.kind) {
    case 'until-turn-start':
    case 'until-turn-end': {
      const c = combatantOf(state, duration.combatant);
      if (!c) return unknownCombatant(state, duration.combatant);
      const acting = state.current === c.id;
      const defaultTurns = 1;
      let turns = duration.turns ?? defaultTurns;
      // "until the end of Bren's turn" said outside Bren's turn means the end of Bren's next turn.
      if (duration.kind === 'until-turn-end' && turns === 0 && !acting) turns = 1;
      return {
        on: duration.kind === 'until-turn-start' ? 'turn-start' : 'turn-end',
        combatant: c.id,
        turnsStarted: c.turnsStarted + turns,
      };
    }
    case 'until-round-end':
      if (ruleset.clock.roundless) {
        return reject(
          'effect/no-rounds',
          `${ruleset.name} has no rounds; make the effect last a number of ${ruleset.clock.unit}s, until someone's turn, or until removed.`,
        );
      }
      return { on: 'round-end', round: duration.round ?? Math.max(state.round, 1) };
    case 'for': {
      if (!ruleset.clock.after || !state.now) {
        return reject(
          'effect/duration-unsupported',
          state.now
            ? `${ruleset.name} cannot measure a duration in ${ruleset.clock.unit}s; anchor it to a turn or a round instead.`
            : `A duration in ${ruleset.clock.unit}s starts counting when the fight starts; start it first, or anchor the effect to a turn.`,
        );
      }
      const at = ruleset.clock.after(state, state.now, duration.amount);
      if (isRejection(at)) return at;
      return { on: 'instant', at };
    }
    case 'until':
      return { on: 'instant', at: duration.at };
    case 'indefinite':
      return { on: 'never' };
  }
}

export function decideCore(ctx: DecideContext, command: CoreCommand, ruleset: AnyRuleset): Decision<never> {
  const state = ctx.state;
  const need = (id: string): Combatant | Rejection => combatantOf(state, id) ?? unknownCombatant(state, id);
  switch (command.type) {
    case 'add-combatant': {
      const c = buildCombatant(state, ruleset, command.combatant);
      if (isRejection(c)) return c;
      return [{ type: 'combatant/added', combatant: c }];
    }
    case 'update-combatant': {
      const c = need(command.combatant);
      if (isRejection(c)) return c;
      const { type: _t, combatant: _c, stats, ...rest } = command;
      if (rest.name !== undefined) {
        const wanted = rest.name.trim().replace(/\s+/g, ' ');
        if (distinctName(wanted, namesIn(state, c.id)) !== wanted) {
          // Offered: a name nobody has, this combatant's own included (it is being renamed).
          const free = distinctName(wanted, namesIn(state));
          return reject(
            'combatant/name-taken',
            `Another combatant is already called "${rest.name.trim()}"; two combatants never share a name. Call ${c.name} "${free}" or another name.`,
            { combatant: c.id, free },
          );
        }
        rest.name = wanted;
      }
      const patch: Extract<CoreEvent, { type: 'combatant/updated' }>['patch'] = {};
      for (const [k, v] of Object.entries(rest)) if (v !== undefined) Object.assign(patch, { [k]: v });
      if (stats !== undefined) {
        const unknown = unknownStats(ruleset, stats, c.name);
        if (unknown) return unknown;
        const checked = ruleset.statsSchema.safeParse({ ...c.stats, ...stats });
        if (!checked.success)
          return reject(
            'combatant/invalid-stats',
            explainZodError(checked.error, `sheet of ${c.name}`, ruleset.statsSchema),
          );
        patch.stats = checked.data;
        // Before the fight, what the rules keep for the combatant follows its sheet (a weapon added is in
        // hand, a Stamina changed fills the gauge); once it runs, that state is the fight's own.
        if (state.status === 'setup') patch.cs = ruleset.initCombatant(checked.data, state.options);
      }
      return [{ type: 'combatant/updated', combatant: c.id, patch }];
    }
    case 'remove-combatant': {
      const c = need(command.combatant);
      if (isRejection(c)) return c;
      return [{ type: 'combatant/removed', combatant: c.id, name: c.name }];
    }
    case 'defeat':
    case 'revive': {
      const c = need(command.combatant);
      if (isRejection(c)) return c;
      if (command.type === 'defeat' && !c.active)
        return reject('combatant/already-defeated', `${c.name} is already out of the fight.`);
      if (command.type === 'revive' && c.active)
        return reject('combatant/not-defeated', `${c.name} is still in the fight.`);
      return [
        { type: command.type === 'defeat' ? 'combatant/defeated' : 'combatant/revived', combatant: c.id },
      ];
    }
    case 'damage':
    case 'heal':
    case 'set-hp': {
      const c = need(command.combatant);
      if (isRejection(c)) return c;
      const hp = c.hp ?? { current: 0, max: 0, temp: 0 };
      const negative = ruleset.negativeHp === true;
      let next: HitPoints;
      if (command.type === 'damage') {
        next = damaged(hp, command.amount, negative);
      } else if (command.type === 'heal') {
        if (!c.hp)
          return reject(
            'hp/untracked',
            `${c.name} has no hit points tracked; give them hit points first (set their HP).`,
          );
        next = { ...hp, current: Math.min(hp.max, hp.current + command.amount) };
      } else {
        next = setHp(c.hp, command, negative);
      }
      return [{ type: 'hp/changed', combatant: c.id, from: hp, hp: next }];
    }
    case 'add-effect': {
      const target = need(command.target);
      if (isRejection(target)) return target;
      if (command.source !== undefined) {
        const src = need(command.source);
        if (isRejection(src)) return src;
      }
      const duration: Duration = command.duration;
      const expires = resolveExpiry(state, ruleset, duration);
      if (isRejection(expires)) return expires;
      const effect: Effect = {
        id: ctx.newId('fx'),
        name: command.name,
        target: target.id,
        duration,
        expires,
      };
      if (command.source !== undefined) effect.source = command.source;
      if (command.note !== undefined) effect.note = command.note;
      if (command.data !== undefined) effect.data = command.data;
      return [{ type: 'effect/added', effect }];
    }
    case 'remove-effect': {
      const e = state.effects.find((x) => x.id === command.effect);
      if (!e) return reject('effect/unknown', `There is no effect "${command.effect}" active now.`);
      return [{ type: 'effect/removed', effect: e.id, name: e.name, target: e.target }];
    }
    case 'define-action': {
      const action = { ...command.action, custom: true };
      const clash = ruleset.catalog(state).find((a) => a.id === action.id);
      if (clash) {
        return reject(
          'action/duplicate',
          `"${action.id}" is already the catalog's ${clash.name}; give the custom action another id.`,
        );
      }
      const problem = ruleset.validateCustomAction?.(action);
      if (problem) return problem;
      return [{ type: 'action/defined', action }];
    }
    case 'remove-action': {
      if (!state.customActions.some((a) => a.id === command.action)) {
        return reject('action/unknown', `There is no custom action "${command.action}" to remove.`);
      }
      return [{ type: 'action/removed', action: command.action }];
    }
    case 'set-options': {
      const unknown = unknownOptions(ruleset.optionsSchema, command.options, ruleset.name);
      if (unknown) return reject('options/unknown', unknown);
      const next = ruleset.optionsSchema.safeParse({ ...state.options, ...command.options });
      if (!next.success)
        return reject(
          'options/invalid',
          explainZodError(next.error, `options for ${ruleset.name}`, ruleset.optionsSchema),
        );
      const refused = ruleset.canSetOptions?.(state, next.data);
      if (refused) return refused;
      return [{ type: 'options/set', options: next.data, previous: state.options }];
    }
    case 'set-hp-display': {
      const previous = hpDisplayOf(state);
      if (command.pc === undefined && command.npc === undefined)
        return reject(
          'hp-display/empty',
          'Say how the table and players see PC HP, NPC HP or both: numbers, descriptors or hidden.',
        );
      const display = { pc: command.pc ?? previous.pc, npc: command.npc ?? previous.npc };
      // An encounter that never said may make the default its explicit choice: the web's table reads an
      // unset choice its own way (NPC HP in words unless the GM's link asks for numbers), a made one as said.
      if (state.hpDisplay && display.pc === previous.pc && display.npc === previous.npc)
        return reject('hp-display/unchanged', `Already so: ${describeHpDisplay(previous)}.`);
      return [{ type: 'hp-display/set', display, previous: { ...previous } }];
    }
    case 'add-timed-event': {
      if (!ruleset.timedAt)
        return reject(
          'timed/unsupported',
          `${ruleset.name}'s clock has no fixed moment in a round for a timed event; add a note instead.`,
        );
      const place = ruleset.timedAt(state, command.at);
      if (isRejection(place)) return place;
      const timed: TimedEvent = {
        id: ctx.newId('timed'),
        name: command.name,
        at: place.at,
        when: place.when,
        fired: 0,
      };
      if (command.note) timed.note = command.note;
      if (place.every !== undefined) timed.every = place.every;
      if (place.every !== undefined && place.eachRound) timed.restart = place.at;
      return [{ type: 'timed/added', timed }];
    }
    case 'remove-timed-event': {
      const t = state.timed?.find((x) => x.id === command.id);
      if (!t)
        return reject(
          'timed/unknown',
          `There is no timed event "${command.id}". There are: ${(state.timed ?? []).map((x) => `${x.id} (${x.name})`).join(', ') || 'none'}.`,
        );
      return [{ type: 'timed/removed', id: t.id, name: t.name }];
    }
    case 'note':
      return [{ type: 'note/added', text: command.text }];
    case 'end':
      return [{ type: 'encounter/ended', round: state.round }];
    case 'undo': {
      const group = state.history.undoable.at(-1);
      if (group === undefined) return reject('undo/nothing', 'There is nothing to undo.');
      return [{ type: 'undo', group }];
    }
    case 'redo': {
      const group = state.history.redoable.at(-1);
      if (group === undefined) {
        return reject(
          'redo/nothing',
          'There is nothing to redo (redo works right after an undo, before any new command).',
        );
      }
      return [{ type: 'redo', group }];
    }
  }
}
