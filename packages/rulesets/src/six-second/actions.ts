import {
  type ActionDef,
  type Combatant,
  candidates,
  combatantOf,
  type Decision,
  type Instant,
  type LegalAction,
  notRunning,
  reject,
} from '@roundkeeper/engine';
import { actionById, actionsOf, defaultDelay, isVariable, secondsOf } from './catalog.js';
import { nextNormalRound, secondOf, secondsLeft, slotOf } from './clock.js';
import type { SixSecondCommandOf } from './commands.js';
import type { SixSecondEvent, SixSecondEventOf, SixSecondFact } from './events.js';
import { complete, spendSeconds } from './turns.js';
import type { Ctx, SixSecondTypes, State } from './types.js';

type Verdict =
  | { ok: true; seconds: number; carry: number; note?: string }
  | { ok: false; code: string; reason: string; seconds: number };

const s = (n: number) => `${n} s`;

/** A refusal's verdict. */
const no = (code: string, reason: string, seconds: number): Verdict => ({ ok: false, code, reason, seconds });

/** Whether `id` may take `action` now, taking `seconds` seconds, and why not. */
export function legality(state: State, id: string, action: ActionDef, seconds = secondsOf(action)): Verdict {
  const c = Object.hasOwn(state.combatants, id) ? state.combatants[id] : undefined;
  if (!c) return no('combatant/unknown', `There is no combatant "${id}".`, seconds);
  const stopped = notRunning(state);
  if (stopped) return no(stopped.code, stopped.message, seconds);
  if (!c.active) return no('combatant/defeated', `${c.name} is out of the fight.`, seconds);
  if (c.cs.delaying) {
    return no(
      'turn/delaying',
      `${c.name} is delaying; take the delayed turn first (Take turn), at any moment before ${c.name}'s next turn.`,
      seconds,
    );
  }
  if (state.current !== id) {
    const now = state.current ? (state.combatants[state.current]?.name ?? 'someone else') : 'nobody';
    return no('turn/not-yours', `It is ${now}'s turn; ${c.name} acts on their own turn.`, seconds);
  }
  const n = state.options.turnSeconds;
  const left = secondsLeft(state, c.cs);
  if (seconds === 0) {
    // 001: "Characters can take any number of 0SAs on their turn (within reason)" — the GM's cap.
    const cap = state.options.zeroSecondCap;
    if (cap !== null && c.cs.zeroUsed >= cap) {
      return no(
        'zero-second/cap',
        `${c.name} has taken ${c.cs.zeroUsed} zero-second actions this turn, the GM's limit (zeroSecondCap ${cap}); raise it or wait for the next turn.`,
        seconds,
      );
    }
    return { ok: true, seconds, carry: 0 };
  }
  if (left === 0) {
    return no(
      'seconds/none-left',
      `${action.name} needs ${s(seconds)} and ${c.name} has 0 s left this turn; end the turn (Next) and act on the next one.`,
      seconds,
    );
  }
  if (seconds <= left) return { ok: true, seconds, carry: 0 };
  const carry = seconds - left;
  // 001: "A character can, for example, spend the last 3 seconds of one round casting a spell and finish
  // it on the first second of the next round."
  if (!state.options.carryOver) {
    return no(
      'seconds/insufficient',
      `${action.name} needs ${s(seconds)}, ${s(left)} left — it would continue into the next turn: not allowed in this encounter (option carryOver is off).`,
      seconds,
    );
  }
  const turns = Math.ceil(carry / n);
  const lastSecond = ((carry - 1) % n) + 1;
  const where = turns === 1 ? `${c.name}'s next turn` : `${c.name}'s turn ${turns} turns from now`;
  return {
    ok: true,
    seconds,
    carry,
    note: `needs ${s(seconds)}, ${s(left)} left — it would continue into the next turn: allowed (it finishes at second ${lastSecond} of ${where}).`,
  };
}

function previewOf(
  state: State,
  c: Combatant<SixSecondTypes>,
  seconds: number,
): { from: Instant; to: Instant; label: string } | undefined {
  const id = c.id;
  const base = c.cs.base;
  if (!base || seconds === 0 || state.current !== id) return undefined;
  const n = state.options.turnSeconds;
  const from = secondOf(state.round, base, c.cs.secondsUsed + 1);
  const end = c.cs.secondsUsed + seconds;
  if (end <= n)
    return { from, to: secondOf(state.round, base, end), label: `seconds ${c.cs.secondsUsed + 1}–${end}` };
  const beyond = end - n;
  const turns = Math.ceil(beyond / n);
  const second = ((beyond - 1) % n) + 1;
  const to = { round: nextNormalRound(state, id) + turns - 1, at: [slotOf(state, id), second] };
  return { from, to, label: `continues to second ${second} of a later turn` };
}

/** Every action of the encounter's catalog for `id`, with its cost in seconds and why not when disabled. */
export function legalActions(
  state: State,
  id: string,
  only?: (action: ActionDef) => boolean,
  lean?: boolean,
): LegalAction[] {
  const actions = actionsOf(state);
  return (only ? candidates(actions, only) : actions).map((action) => {
    const v = legality(state, id, action);
    const cost = { seconds: v.seconds };
    // Lean (a simulation's policy): the verdict and its cost, without the words and the clock preview.
    if (lean) return v.ok ? { action, enabled: true, cost } : { action, enabled: false, code: v.code, cost };
    if (!v.ok) return { action, enabled: false, reason: v.reason, code: v.code, cost };
    const c = combatantOf(state, id);
    const preview = c ? previewOf(state, c, v.seconds) : undefined;
    return {
      action,
      enabled: true,
      cost,
      ...(v.note ? { reason: v.note } : {}),
      ...(preview ? { preview } : {}),
    };
  });
}

/** 001: "A character can take any number of actions in a round, so long as the total time … adds up to six seconds." */
export function act(ctx: Ctx, command: SixSecondCommandOf<'act'>): Decision<SixSecondEvent> {
  const { state } = ctx;
  const id = command.actor;
  const c = combatantOf(state, id);
  if (!c)
    return reject(
      'combatant/unknown',
      `There is no combatant "${id}" (combatants: ${state.roster.join(', ')}).`,
    );
  const action = actionById(state, command.action);
  if (!action) {
    return reject(
      'action/unknown',
      `There is no action "${command.action}" here; pick one of ${actionsOf(state)
        .map((x) => x.name)
        .join(', ')}.`,
    );
  }
  let seconds = secondsOf(action);
  if (command.seconds !== undefined) {
    // 001's table: "Run (or longer)" — a few actions may be declared longer than their time.
    if (!isVariable(action) && command.seconds !== seconds) {
      return reject(
        'action/fixed-seconds',
        `${action.name} takes ${s(seconds)}; only actions marked "or longer" take a declared time. The GM can change its time in the options (seconds per action).`,
      );
    }
    if (command.seconds < seconds) {
      return reject(
        'action/too-short',
        `${action.name} takes at least ${s(seconds)}; enter ${s(seconds)} or more as its Seconds.`,
      );
    }
    seconds = command.seconds;
  }
  const v = legality(state, id, action, seconds);
  if (!v.ok) return reject(v.code, v.reason, { actor: id, action: action.id });
  const delay = command.delay ?? defaultDelay(action);
  const effect = command.effect ?? action.name;
  const used = c.cs.secondsUsed;
  const now = Math.min(seconds, secondsLeft(state, c.cs));
  const acted: SixSecondEventOf<'six-second/acted'> = {
    type: 'six-second/acted',
    combatant: id,
    action: action.id,
    name: action.name,
    kind: action.kind,
    seconds,
    from: now > 0 ? used + 1 : used,
    to: used + now,
    carry: v.carry,
    round: state.round,
    turn: c.cs.turnNo,
    delay,
    effect,
  };
  if (command.target !== undefined) acted.target = command.target;
  const events: SixSecondFact[] = [acted];
  if (now > 0) spendSeconds(state, id, used + 1, used + now, events);
  if (v.carry === 0) complete(ctx, c, action.id, used + now, delay, effect, events);
  return events;
}
