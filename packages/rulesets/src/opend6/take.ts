import {
  type ActionDef,
  type AgendaEntry,
  combatantIn,
  type Decision,
  type Instant,
  reject,
  schedule,
  unschedule,
} from '@roundkeeper/engine';
import { actionOf, catalog, legality, type Mode, skillRoll } from './actions.js';
import { flagsOf } from './catalog.js';
import type { Opend6CommandOf } from './commands.js';
import type { AnyEvent, Opend6Event, Opend6EventOf } from './events.js';
import { effectiveCodes, penaltyFor } from './penalty.js';
import { justAfter } from './round.js';
import type { Happening } from './shapes.js';

import type { Ctx, State } from './types.js';

/** An action taken on the character's turn, moved up, or as an interrupt: `act` and `interrupt` alike. */
export type TakeCommand = Opend6CommandOf<'act'> | Opend6CommandOf<'interrupt'>;

/** What happened, for the timeline: the kind of moment and the action's name. */
function happening(
  state: State,
  at: number[],
  combatant: string,
  kind: Happening['kind'],
  label: string,
  action?: string,
): Opend6EventOf<'opend6/happened'> {
  const h: Happening = { round: state.round, at, combatant, kind, label };
  if (action) h.action = action;
  return { type: 'opend6/happened', happening: h };
}

/** A declaration of the round's actions for the character, and for the members of a group who act with her. */
export function declaredEvent(
  id: string,
  members: string[],
  actions: number,
  state: State,
): Opend6EventOf<'opend6/declared'> {
  const c = combatantIn(state, id);
  const penalty = penaltyFor(actions, c.stats.actionAllotment);
  return {
    type: 'opend6/declared',
    combatant: id,
    combatants: members,
    actions,
    allotment: c.stats.actionAllotment,
    penalty,
    effective: effectiveCodes(c, penalty),
  };
}

/** Takes one catalog or custom action: counts it, rolls its skill with the penalty, records it on the clock. */
export function takeAction(
  ctx: Ctx,
  command: TakeCommand,
  mode: Mode,
  found: ActionDef | undefined = actionOf(ctx.state, command.action),
): Decision<Opend6Event> {
  const { state } = ctx;
  const id = command.actor;
  const c = combatantIn(state, id);
  const action = found;
  if (!action) {
    return reject(
      'action/unknown',
      `There is no action "${command.action}" here; pick one of ${catalog(state)
        .map((a) => a.name)
        .join(', ')}.`,
    );
  }
  const events: AnyEvent[] = [];
  let declared = c.cs.declared;
  if (command.type === 'act' && command.declare !== undefined) {
    if (declared !== null) {
      return reject(
        'actions/declared',
        `${c.name} already declared ${declared} action${declared === 1 ? '' : 's'} this round; no actions may be added once the multi-action penalty is figured. ${c.name} declares again next round.`,
      );
    }
    declared = command.declare;
    events.push(declaredEvent(c.id, [c.id], declared, state));
  }
  const flags = flagsOf(action);
  const check = legality(state, c, action, mode, declared, flags);
  if (!check.ok) return reject(check.code, check.reason, { actor: id, action: action.id });
  let instant: Instant = state.now ?? { round: state.round, at: [] };
  if (mode === 'interrupt') {
    // `legality` found the open roll to interrupt.
    const open = state.rs.openRoll;
    if (!open) {
      return reject(
        'interrupt/no-roll',
        `There is no roll to interrupt: ${c.name} may interrupt after another character's skill roll for an action and before the GM declares its result.`,
      );
    }
    // The interrupt happens just after the roll it interrupts, before its result: a moment on the agenda.
    instant = justAfter(state, 0);
    const entry: AgendaEntry = {
      id: ctx.newId('interrupt'),
      at: instant,
      kind: 'interrupt',
      combatant: id,
      label: `${c.name} interrupts`,
      ...(c.hidden ? { secret: true } : {}),
    };
    events.push(
      schedule(entry),
      unschedule(entry.id, 'reached'),
      { type: 'clock/advanced', to: instant },
      { type: 'opend6/interrupted', combatant: id, interrupted: open.combatant },
    );
  }
  if (mode === 'move-up') {
    if (ctx.by.role !== 'gm') {
      return reject(
        'move-up/gm-only',
        `Only the GM may let ${c.name} move up their turn (catch, resisting a mental attempt…); ask the GM to move up ${c.name}'s turn for this action, or wait for it.`,
      );
    }
    if (command.type !== 'act' || command.moveUp !== true) {
      return reject(
        'turn/not-yours',
        `It is not ${c.name}'s turn. The GM may permit moving up ${c.name}'s turn for this action (Move up the turn), or ${c.name} may interrupt after waiting.`,
      );
    }
  }
  const acted: Opend6EventOf<'opend6/acted'> = {
    type: 'opend6/acted',
    combatant: id,
    action: action.id,
    name: action.name,
    mode,
    number: flags.free ? null : c.cs.used + 1,
    declared,
    penalty: penaltyFor(declared, c.stats.actionAllotment),
    wait: flags.wait,
  };
  if (command.target) acted.target = command.target;
  events.push(acted);
  const kind: Happening['kind'] = flags.free
    ? 'free'
    : flags.wait
      ? 'wait'
      : mode === 'interrupt'
        ? 'interrupt'
        : mode === 'move-up'
          ? 'move-up'
          : 'action';
  events.push(happening(state, instant.at, id, kind, action.name, action.id));
  // `roll: true` asks for the roll an action skips by default (Move over challenging terrain).
  const wantsRoll =
    command.roll === true ||
    (command.roll !== false && (flags.roll || command.skill !== undefined || command.code !== undefined));
  if (wantsRoll) {
    const rolled = skillRoll(ctx, c, {
      skill: command.skill,
      code: command.code,
      suggested: flags.skills,
      purpose: action.name,
      declared,
    });
    if (rolled && !Array.isArray(rolled)) return rolled;
    if (rolled === null && command.roll === true) {
      return reject(
        'roll/what',
        `${c.name} has none of the skills suggested for ${action.name}${flags.skills.length > 0 ? ` (${flags.skills.join(', ')})` : ''}; enter the Skill or attribute to roll, or a Die code.`,
      );
    }
    // An interrupt's own roll does not open a new moment to interrupt: the interrupted result is still due.
    if (rolled)
      for (const e of rolled) if (mode !== 'interrupt' || e.type !== 'opend6/roll-open') events.push(e);
  }
  return events;
}
