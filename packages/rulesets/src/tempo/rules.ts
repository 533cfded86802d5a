import {
  type ActionDef,
  compareInstants,
  type Instant,
  notRunning,
  notStarted,
  type Rejection,
  reject,
} from '@roundkeeper/engine';
import {
  findAction,
  isReaction,
  SLOT_WORD,
  speedAllows,
  timingOf,
  uniqueKeys,
  usualTempo,
  variableTempo,
  weaponOf,
  weaponSpeedOf,
} from './catalog.js';
import type { WeaponSpeed } from './options.js';
import type { C, PlanItem, PlanSlot, State, TurnState } from './types.js';

export type { C } from './types.js';

/** 003 "Exertion": "The Maximum Exertion a character can take is: 2 + FOR (minimum 1)." */
export function maxExertion(c: C): number {
  return Math.max(1, 2 + c.stats.FOR);
}

/** How the maximum comes about, arithmetic that adds up: "3 = 2 + FOR 1", "1: 2 + FOR -3 = -1, raised to the minimum of 1". */
export function maxExertionText(c: C): string {
  const sum = 2 + c.stats.FOR;
  return sum >= 1
    ? `${sum} = 2 + FOR ${c.stats.FOR}`
    : `1: 2 + FOR ${c.stats.FOR} = ${sum}, raised to the minimum of 1`;
}

/** The tempo of the current turn, or null outside the count. Instants are [tempo, side, order…]. */
export function currentTempo(state: State): number | null {
  if (state.rs.phase !== 'tempo' || !state.now) return null;
  return state.now.at[0] ?? null;
}

/** 003: "All players perform their actions at that Tempo, then all NPCs" — side 0 before side 1. */
export function sideIndex(c: C): number {
  return c.side === 'pc' ? 0 : 1;
}

export function planInstant(state: State, c: C, tempo: number, seq: number): Instant {
  return { round: state.round, at: [tempo, sideIndex(c), state.roster.indexOf(c.id), seq] };
}

/** Refuses an instant the count has already passed (time only moves forward). */
export function compareAfterNow(state: State, at: Instant, what = 'The action'): Rejection | undefined {
  if (!state.now || compareInstants(at, state.now) > 0) return undefined;
  const now = currentTempo(state);
  const tempo = at.at[0] ?? null;
  const side = at.at[1] === 0 ? 'PCs' : 'NPCs';
  const acting = state.now.at[1] === 0 ? 'PCs' : 'NPCs';
  const why =
    now !== null && now === tempo
      ? `the ${side}' part of tempo ${tempo} is over: the ${acting} are acting at it`
      : `the count is already at tempo ${now ?? '?'}`;
  return reject('plan/tempo-passed', `${what} would happen at tempo ${tempo ?? '?'}, but ${why}.`, { tempo });
}

/**
 * Where a plan (new, changed, or moved by Exert) goes on the count. 003: "All players perform their
 * actions at that Tempo, then all NPCs" — a side's part of a tempo lasts until its last action there is
 * done, and within it the table chooses the order (act-next), so roster order does not close it: a plan
 * at the tempo and side acting now, whose place in roster order has passed, comes right after the
 * current turn. A tempo or part already over is refused.
 */
export function placePlan(
  state: State,
  c: C,
  tempo: number,
  seq: number,
  what = 'The action',
): Instant | Rejection {
  const at = planInstant(state, c, tempo, seq);
  const now = state.now;
  if (!now || compareInstants(at, now) > 0) return at;
  if (currentTempo(state) === tempo && now.at[1] === sideIndex(c) && state.current !== null)
    return { round: state.round, at: [...now.at, 1, ...at.at.slice(2)] };
  return compareAfterNow(state, at, what) ?? at;
}

export function nameOf(state: State, id: string | null | undefined): string {
  if (!id) return 'nobody';
  return state.combatants[id]?.name ?? id;
}

export function actionName(state: State, c: C | undefined, id: string): string {
  return findAction(state, c, id)?.name ?? id;
}

export function running(state: State): Rejection | undefined {
  if (state.status !== 'running' || state.rs.phase === 'setup') {
    return notRunning(state) ?? notStarted();
  }
  return undefined;
}

export function able(c: C): Rejection | undefined {
  if (c.cs.dead) return reject('tempo/dead', `${c.name} is dead.`);
  if (!c.active) return reject('combatant/defeated', `${c.name} is out of the fight.`);
  return undefined;
}

export interface PlanRequest {
  slot?: PlanSlot;
  replace?: PlanItem;
  tempo?: number;
  strike?: boolean;
  /** Magic: the spell's name (a spell keeps the tempo it was planned at). */
  spell?: string;
}

export interface PlanResult {
  slot: PlanSlot;
  tempo: number;
  at: Instant;
}

/**
 * Whether `def` may be planned now, as a new plan or replacing one. The rules it checks: the number of
 * actions ("2 actions per round", Extra/Free tags, Exert's "another Action"), the Unique Action
 * Restriction, the action's tempo, and that its moment has not passed on the count.
 */
export function planLegality(
  state: State,
  c: C,
  def: ActionDef,
  req: PlanRequest = {},
): PlanResult | Rejection {
  const refused = running(state) ?? able(c);
  if (refused) return refused;
  if (isReaction(def)) {
    return reject(
      'tempo/reaction-not-planned',
      `${def.name} is a reaction: it is not planned; use it from the reactions when its trigger happens.`,
    );
  }
  const fromSets = def.data?.actionSet === true;
  if (c.side === 'npc' && c.stats.actionSets.length > 0 && !fromSets && !def.custom) {
    return reject(
      'tempo/npc-action-sets',
      `${c.name} acts with its action sets (${c.stats.actionSets.map((s) => s.name).join(', ')}), not with ${def.name}.`,
    );
  }
  if (req.replace?.taken) {
    return reject(
      'plan/taken',
      `${c.name} has already taken ${actionName(state, c, req.replace.action)}; only actions not yet taken can change.`,
    );
  }
  // The other plans (all but the one replaced), counted by slot in one pass: asked at every plan.
  const replacing = req.replace?.id;
  const others = c.cs.plan.length === 0 ? c.cs.plan : c.cs.plan.filter((p) => p.id !== replacing);
  let actions = 0;
  let exerted = 0;
  for (const p of others) {
    if (p.slot === 'action') actions++;
    else if (p.slot === 'exert') exerted++;
  }
  const timing = timingOf(def);
  // Unsaid, a plan fills the round's actions first, then an action Exert granted.
  const inferred: PlanSlot =
    actions >= state.options.actionsPerRound && exerted < c.cs.exertActions ? 'exert' : 'action';
  const slot = req.slot ?? req.replace?.slot ?? timing ?? inferred;
  // 003 "Every player starts with 2 actions per round."
  if (slot === 'action' && actions >= state.options.actionsPerRound) {
    const names = others
      .filter((p) => p.slot === slot)
      .map((p) => actionName(state, c, p.action))
      .join(', ');
    return reject(
      'plan/full',
      `${c.name} has already planned ${state.options.actionsPerRound} actions this round (${names}); change one of them, or Exert at the end of a turn for another.`,
    );
  }
  // 003 "Extra"/"Free": only actions with that tag are taken in addition to the usual 2.
  if ((slot === 'extra' || slot === 'free') && timing !== slot) {
    return reject(
      'plan/not-tagged',
      `${def.name} has no ${slot === 'extra' ? 'Extra' : 'Free'} tag, so it cannot be taken as an additional ${SLOT_WORD[slot]}; plan it as one of the round's actions.`,
    );
  }
  // 003 "Exert at the end of any turn: Take another Action this round."
  if (slot === 'exert' && exerted >= c.cs.exertActions) {
    return reject(
      'plan/no-exert-action',
      `${c.name} has no Exerted action left to plan this round; Exert at the end of a turn ("another action") first.`,
    );
  }
  let tempo: number;
  if (variableTempo(state, def)) {
    // Magic "Tempo: Varies": the spell's tempo. Re-planning the same spell keeps it; moving the same
    // spell elsewhere is an Exert ("Change an Action … to a different Tempo than usual").
    const was = req.replace;
    const sameSpell = was?.action === def.id && (req.spell ?? was.spell) === was.spell ? was : undefined;
    if (sameSpell && req.tempo !== undefined && req.tempo !== sameSpell.tempo) {
      const spell = sameSpell.spell ?? def.name;
      return reject(
        'plan/tempo-fixed',
        `${spell} was planned at tempo ${sameSpell.tempo}; moving the same spell to tempo ${req.tempo} takes an Exert (Change a planned action's tempo), or plan a different spell.`,
      );
    }
    const given = req.tempo ?? sameSpell?.tempo;
    if (given === undefined) {
      return reject(
        'plan/tempo-needed',
        `${def.name} happens at the spell's tempo; enter the Spell's tempo (0–9).`,
      );
    }
    tempo = given;
  } else {
    const usual = usualTempo(state, def);
    if (usual === null)
      return reject(
        'plan/tempo-needed',
        `${def.name} has no tempo; the GM gives the action a tempo (0–9) in its definition.`,
      );
    if (req.tempo !== undefined && req.tempo !== usual) {
      return reject(
        'plan/tempo-fixed',
        `${def.name} happens at tempo ${usual}; changing an action's tempo takes an Exert (Change a planned action's tempo).`,
      );
    }
    tempo = usual;
  }
  // 003 "Unique Action Restriction": Extra actions too; Free and Exerted actions ignore it.
  if (slot === 'action' || slot === 'extra') {
    const keys = uniqueKeys(state, def, req.strike);
    for (const p of others) {
      if (p.slot !== 'action' && p.slot !== 'extra') continue;
      const otherDef = findAction(state, c, p.action);
      if (!otherDef) continue;
      const clash = uniqueKeys(state, otherDef, p.strike).find((k) => keys.includes(k));
      if (!clash) continue;
      const why =
        clash === 'attack'
          ? 'all attacks are one action'
          : 'each action in a round must be a different action (Unique Action Restriction)';
      // 003 Inventory: a Strike consumable "also counts as an Attack action for the Unique Action
      // Restriction" — say so, or the clash with an Attack reads as nonsense.
      const strikeHere = clash === 'attack' && req.strike === true && !weaponSpeedOf(state, def);
      const strikeThere = clash === 'attack' && p.strike === true && !weaponSpeedOf(state, otherDef);
      const mine = strikeHere ? 'with a Strike consumable it counts as an Attack action, and ' : '';
      const theirs = strikeThere ? ' with a Strike consumable, which counts as an Attack action' : '';
      return reject(
        'unique/repeated',
        `${def.name} is unavailable: ${mine}you already ${p.taken ? 'took' : 'planned'} ${otherDef.name}${theirs} — ${why}.`,
        { action: def.id, clash: otherDef.id },
      );
    }
  }
  const seq = req.replace ? c.cs.plan.findIndex((p) => p.id === req.replace?.id) : c.cs.plan.length;
  const at = placePlan(state, c, tempo, seq, def.name);
  if ('code' in at) return at;
  return { slot, tempo, at };
}

/** Whether `c` may use reaction `def` now (the trigger, if given, must not have been reacted to before). */
export function reactionLegality(
  state: State,
  c: C,
  def: ActionDef,
  trigger?: string,
): Rejection | undefined {
  const refused = running(state) ?? able(c);
  if (refused) return refused;
  if (!isReaction(def)) {
    return reject('reaction/not-a-reaction', `${def.name} is not a reaction; plan it as an action instead.`);
  }
  const tempo = currentTempo(state);
  if (tempo === null || !state.current) {
    return reject(
      'reaction/no-turn',
      'Reactions are taken on a turn, and no turn is in progress (the GM is not counting yet).',
    );
  }
  // Pre-requisites.
  if (def.id === 'intercept') {
    if (!c.cs.guarding) {
      return reject(
        'reaction/prerequisite',
        `Intercept comes from Guard: ${c.name} has not Guarded anyone this round.`,
      );
    }
  }
  if (def.id === 'dual-wield') {
    const held = c.cs.held.map((h) => weaponOf(c, h)).filter((w) => w !== undefined);
    const [first, second] = held;
    const pair = held.length === 2 && first?.speed === second?.speed;
    if (!pair) {
      const holding = held.map((w) => `${w.name} (${w.speed})`).join(' and ') || 'no weapons';
      return reject(
        'reaction/prerequisite',
        `Dual Wield needs two held weapons of the same Weapon Speed; ${c.name} holds ${holding}.`,
      );
    }
    const turn = c.cs.turn;
    const struck =
      state.current === c.id && turn?.acted && turn.weapon && held.some((w) => w.name === turn.weapon);
    if (!struck) {
      return reject(
        'reaction/no-trigger',
        `Dual Wield's trigger is ${c.name} taking the Attack action to Strike with one of those weapons; that has not happened this turn.`,
      );
    }
  }
  const needed = typeof def.data?.tempo === 'number' ? def.data.tempo : 0;
  // 003 "Reaction": "the Tempo of the current turn is equal or greater than the Tempo of the reaction".
  if (tempo < needed) {
    return reject(
      'reaction/too-early',
      `${def.name} has tempo ${needed}; the current turn is at tempo ${tempo}, so it can be used from tempo ${needed} on.`,
      { tempo, needed },
    );
  }
  // "Every turn you have 1 Reaction to use."
  if (c.cs.reactions.some((r) => r.turn === state.rs.turnNumber)) {
    return reject(
      'reaction/used-this-turn',
      `${c.name} has already used a reaction on this turn; each character has 1 Reaction per turn.`,
    );
  }
  // "Each Reaction (unless stated otherwise) can only be used once per round."
  const uses = c.cs.reactions.filter((r) => r.reaction === def.id);
  const perRound = typeof def.data?.usesPerRound === 'number' ? def.data.usesPerRound : 1;
  if (uses.length >= perRound) {
    return reject(
      'reaction/used-this-round',
      `${c.name} has already used ${def.name} ${perRound === 1 ? 'this round; each reaction is once per round' : `${perRound} times this round, its limit`}.`,
    );
  }
  // "the same Reaction cannot be triggered by the exact same trigger multiple times."
  if (trigger !== undefined && uses.some((r) => r.trigger === trigger)) {
    return reject(
      'reaction/same-trigger',
      `${c.name} has already used ${def.name} for "${trigger}"; the same reaction cannot answer the same trigger twice.`,
    );
  }
  return undefined;
}

/** Whether `c` may act (act/move) now: it is their turn. */
/** The character's turn in progress, or why it is not theirs to act on now. */
export function ownTurn(state: State, c: C): TurnState | Rejection {
  const refused = running(state) ?? able(c);
  if (refused) return refused;
  if (state.current !== c.id || !c.cs.turn) {
    return reject(
      'turn/not-yours',
      state.current
        ? `It is ${nameOf(state, state.current)}'s turn, not ${c.name}'s.`
        : `No turn is in progress; ${c.name} acts when the count reaches their planned action.`,
    );
  }
  return c.cs.turn;
}

/** 003 "Weapon Speed": the weapon a Strike with `weaponName` under Attack action `def` uses, or why it cannot. */
export function strikeLegality(
  state: State,
  c: C,
  def: ActionDef,
  weaponName: string,
): { name: string; speed: WeaponSpeed } | Rejection {
  const speed = weaponSpeedOf(state, def);
  if (!speed)
    return reject('strike/not-attack', `${def.name} is not an Attack action; Strikes come with an Attack.`);
  const weapon = weaponOf(c, weaponName);
  if (!weapon) {
    const known = c.stats.weapons.map((w) => w.name).join(', ') || 'none';
    return reject('strike/unknown-weapon', `${c.name} has no weapon "${weaponName}" (weapons: ${known}).`);
  }
  if (!c.cs.held.some((h) => h.toLowerCase() === weapon.name.toLowerCase())) {
    return reject(
      'strike/not-held',
      `${c.name} is not holding ${weapon.name} (in hand: ${c.cs.held.join(', ') || 'nothing'}); an Inventory action draws it.`,
    );
  }
  if (!speedAllows(speed, weapon.speed)) {
    return reject(
      'strike/too-slow',
      `${weapon.name} is a ${weapon.speed} weapon; a ${def.name} strikes only with a ${speed} weapon or quicker.`,
    );
  }
  return weapon;
}
