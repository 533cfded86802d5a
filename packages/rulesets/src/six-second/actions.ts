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

/**
 * Why `c` may not take an action of `seconds` seconds now (the refusal's code, see `reasonOf` for its
 * words), or undefined when it may.
 */
function refusal(state: State, c: Combatant<SixSecondTypes>, seconds: number): string | undefined {
  if (state.status !== 'running') return notRunning(state)?.code;
  if (!c.active) return 'combatant/defeated';
  if (c.cs.delaying) return 'turn/delaying';
  if (state.current !== c.id) return 'turn/not-yours';
  if (seconds === 0) {
    // 001: "Characters can take any number of 0SAs on their turn (within reason)" — the GM's cap.
    const cap = state.options.zeroSecondCap;
    return cap !== null && c.cs.zeroUsed >= cap ? 'zero-second/cap' : undefined;
  }
  const left = secondsLeft(state, c.cs);
  if (left === 0) return 'seconds/none-left';
  // 001: "A character can, for example, spend the last 3 seconds of one round casting a spell and finish
  // it on the first second of the next round" — unless the GM turned carrying over off.
  if (seconds > left && !state.options.carryOver) return 'seconds/insufficient';
  return undefined;
}

/** The words of a refusal `refusal` found. */
function reasonOf(
  code: string,
  state: State,
  c: Combatant<SixSecondTypes>,
  action: ActionDef,
  seconds: number,
): string {
  switch (code) {
    case 'combatant/defeated':
      return `${c.name} is out of the fight.`;
    case 'turn/delaying':
      return `${c.name} is delaying; take the delayed turn first (Take turn), at any moment before ${c.name}'s next turn.`;
    case 'turn/not-yours': {
      const now = state.current ? (state.combatants[state.current]?.name ?? 'someone else') : 'nobody';
      return `It is ${now}'s turn; ${c.name} acts on their own turn.`;
    }
    case 'zero-second/cap':
      return `${c.name} has taken ${c.cs.zeroUsed} zero-second actions this turn, the GM's limit (zeroSecondCap ${state.options.zeroSecondCap}); raise it or wait for the next turn.`;
    case 'seconds/none-left':
      return `${action.name} needs ${s(seconds)} and ${c.name} has 0 s left this turn; end the turn (Next) and act on the next one.`;
    case 'seconds/insufficient':
      return `${action.name} needs ${s(seconds)}, ${s(secondsLeft(state, c.cs))} left — it would continue into the next turn: not allowed in this encounter (option carryOver is off).`;
    default:
      return notRunning(state)?.message ?? code;
  }
}

/** Whether `id` may take `action` now, taking `seconds` seconds, and why not. */
export function legality(state: State, id: string, action: ActionDef, seconds = secondsOf(action)): Verdict {
  const c = Object.hasOwn(state.combatants, id) ? state.combatants[id] : undefined;
  if (!c) return { ok: false, code: 'combatant/unknown', reason: `There is no combatant "${id}".`, seconds };
  const code = refusal(state, c, seconds);
  if (code !== undefined)
    return { ok: false, code, reason: reasonOf(code, state, c, action, seconds), seconds };
  const left = secondsLeft(state, c.cs);
  if (seconds <= left) return { ok: true, seconds, carry: 0 };
  const carry = seconds - left;
  const n = state.options.turnSeconds;
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
  const list = only ? candidates(actions, only) : actions;
  if (lean) {
    // A simulation's policy: the refusal's code and the cost, without the words and the clock preview.
    const c = Object.hasOwn(state.combatants, id) ? state.combatants[id] : undefined;
    return list.map((action) => {
      const seconds = secondsOf(action);
      const code = c ? refusal(state, c, seconds) : 'combatant/unknown';
      const cost = { seconds };
      return code === undefined ? { action, enabled: true, cost } : { action, enabled: false, code, cost };
    });
  }
  return list.map((action) => {
    const v = legality(state, id, action);
    const cost = { seconds: v.seconds };
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
  // `legality`'s check, without the note on a carry-over that nobody reads here.
  const refused = refusal(state, c, seconds);
  if (refused !== undefined) {
    return reject(refused, reasonOf(refused, state, c, action, seconds), { actor: id, action: action.id });
  }
  const delay = command.delay ?? defaultDelay(action);
  const effect = command.effect ?? action.name;
  const used = c.cs.secondsUsed;
  const left = secondsLeft(state, c.cs);
  const now = Math.min(seconds, left);
  const carry = seconds - now;
  const acted: SixSecondEventOf<'six-second/acted'> = {
    type: 'six-second/acted',
    combatant: id,
    action: action.id,
    name: action.name,
    kind: action.kind,
    seconds,
    from: now > 0 ? used + 1 : used,
    to: used + now,
    carry,
    round: state.round,
    turn: c.cs.turnNo,
    delay,
    effect,
  };
  if (command.target !== undefined) acted.target = command.target;
  const events: SixSecondFact[] = [acted];
  if (now > 0) spendSeconds(state, id, used + 1, used + now, events);
  if (carry === 0) complete(ctx, c, action.id, used + now, delay, effect, events);
  return events;
}
