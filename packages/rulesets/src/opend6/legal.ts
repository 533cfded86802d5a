import {
  type ActionDef,
  type Combatant,
  candidates,
  combatantOf,
  type LegalAction,
} from '@roundkeeper/engine';
import { catalog, legality, modeFor } from './actions.js';
import { flagsOf } from './catalog.js';
import { MOVE_UP_LABEL } from './commands.js';
import { effective, penaltyFor, penaltyOf, traitOf } from './penalty.js';
import type { Opend6Types, State } from './types.js';

/**
 * What each number of declared actions would cost, before the character declares: "1 action: dodge
 * 4D+1; 2 actions: dodge 3D+1 (−1D); 3 actions: dodge 2D+1 (−2D)", for the action's first suggested
 * skill on the sheet (the one rolled by default).
 */
function penaltyChoices(c: Combatant<Opend6Types>, skills: string[]): string {
  const trait = skills.map((s) => traitOf(c, s)).find((t) => t !== undefined);
  const allotment = c.stats.actionAllotment;
  const parts: string[] = [];
  for (let n = allotment; n <= allotment + 2; n++) {
    const penalty = penaltyFor(n, allotment);
    const e = trait ? { name: trait.name, ...effective(trait.code, penalty) } : undefined;
    const roll = e
      ? `${e.name} ${e.effective}${penalty > 0 ? ` (−${penalty}D)` : ''}${e.usable ? '' : ' — 0D, unusable'}`
      : penalty > 0
        ? `−${penalty}D on every skill and attribute roll`
        : 'no penalty';
    parts.push(`${n} action${n === 1 ? '' : 's'}: ${roll}`);
  }
  return `Declaring ${parts.join('; ')}.`;
}

/**
 * Lean (a simulation's policy, which reads only `enabled`, `code` and `cost`): the same verdicts without
 * the sentences and previews written for a person.
 */
function leanActions(state: State, c: Combatant<Opend6Types>, actions: readonly ActionDef[]): LegalAction[] {
  const penalty = penaltyOf(c);
  return actions.map((action) => {
    const flags = flagsOf(action);
    const mode = modeFor(state, c, action);
    const cost = { actions: flags.free ? 0 : 1, penalty };
    const l = legality(state, c, action, mode, c.cs.declared, flags);
    if (mode === 'move-up' && (l.ok || l.code === 'actions/undeclared'))
      return { action, enabled: false, code: 'turn/not-yours', cost };
    if (!l.ok) return { action, enabled: false, code: l.code, cost };
    if (flags.roll) {
      let traits = 0;
      let unusable = 0;
      for (const s of flags.skills) {
        const t = traitOf(c, s);
        if (t === undefined) continue;
        traits++;
        if (!effective(t.code, penalty).usable) unusable++;
      }
      if (traits > 0 && unusable === traits) return { action, enabled: false, code: 'skill/zero', cost };
    }
    return { action, enabled: true, cost };
  });
}

export function legalActions(
  state: State,
  id: string,
  only?: (action: ActionDef) => boolean,
  lean?: boolean,
): LegalAction[] {
  const c = combatantOf(state, id);
  if (!c) return [];
  const penalty = penaltyOf(c);
  const actions = catalog(state);
  if (lean) return leanActions(state, c, only ? candidates(actions, only) : actions);
  return (only ? candidates(actions, only) : actions).map((action: ActionDef) => {
    const flags = flagsOf(action);
    const mode = modeFor(state, c, action);
    const cost = { actions: flags.free ? 0 : 1, penalty };
    const l = legality(state, c, action, mode, c.cs.declared, flags);
    // The penalty this choice rolls at: the suggested skills' effective codes ("dodge 4D+1 → 3D+1").
    const codes = flags.skills
      .map((s) => traitOf(c, s))
      .filter((t) => t !== undefined)
      .map((t) => {
        const e = effective(t.code, penalty);
        return `${t.name} ${e.code}${penalty > 0 ? ` −${penalty}D = ${e.effective}` : ''}${e.usable ? '' : ' (0D: unusable)'}`;
      });
    const how =
      mode === 'interrupt'
        ? 'interrupt'
        : mode === 'wait-again'
          ? 'wait again after interrupting'
          : mode === 'move-up'
            ? 'move up (GM permits)'
            : 'on their turn';
    // The button already names the action: the preview says how it is taken and at what codes.
    const label = `${how}${codes.length > 0 ? `: ${codes.join(', ')}` : ''}`;
    const at = state.now ?? { round: state.round, at: [] };
    const preview = { from: at, to: at, label };
    if (mode === 'move-up' && (l.ok || l.code === 'actions/undeclared')) {
      const now = state.rs.acting.map((m) => state.combatants[m]?.name ?? m).join(', ') || 'nobody';
      // 002: "Only a few instances exist in which the Game Master may permit a character to 'move up'".
      const which = flags.moveUp
        ? `${action.name} is one of the few reactions for which the GM may let ${c.name} move up their turn ("${MOVE_UP_LABEL}" with it)`
        : `the GM may let ${c.name} move up their turn only for a few reactions, such as catching a thrown object or resisting a mental attempt, or what the GM deems appropriate`;
      return {
        action,
        enabled: false,
        code: 'turn/not-yours',
        reason: `It is ${now}'s turn, not ${c.name}'s; ${which}. It takes one of ${c.name}'s actions${c.cs.declared === null ? ", and the round's number of actions is declared with it" : ''}.`,
        cost,
        preview,
      };
    }
    if (!l.ok && l.code === 'actions/undeclared') {
      return {
        action,
        enabled: false,
        code: l.code,
        reason: `${l.reason} ${penaltyChoices(c, flags.skills)}`,
        cost,
        preview,
      };
    }
    if (!l.ok) return { action, enabled: false, reason: l.reason, code: l.code, cost, preview };
    const allZero = flags.roll && codes.length > 0 && codes.every((x) => x.endsWith('(0D: unusable)'));
    if (allZero) {
      return {
        action,
        enabled: false,
        code: 'skill/zero',
        reason: `${c.name}'s skills for ${action.name} are reduced to 0D at −${penalty}D; a skill reduced to zero cannot be used.`,
        cost,
        preview,
      };
    }
    return { action, enabled: true, cost, preview };
  });
}
