import { z } from 'zod';
import type { Json } from './json.js';
import type { ParamOption } from './params.js';
import type { ActionDef, Combatant, EncounterState, RulesetTypes } from './types.js';

/**
 * What the apps show and ask for, declared by the ruleset: the web page, the table screen, the player's
 * phone and `play` draw from these and name no ruleset. Every member is optional; the defaults are what a
 * plain turn-order tracker shows.
 */

/** A number a combatant card shows beside HP: Marks left, Seconds left, Exertion, Stamina… */
export interface Gauge {
  label: string;
  /** As a person reads it: "12", "4/6", "not declared". */
  value: string;
  /** 0..1 when the gauge has a maximum: drawn as a bar. */
  fill?: number;
  /** Only the GM and the combatant's own player see it (a secret plan's size). */
  private?: boolean;
}

/** One line of a panel's list: a planned action, a declared count. */
export interface PanelItem {
  label: string;
  /** A short badge before it ("tempo 3"). */
  badge?: string;
  /** Done already (taken, resolved). */
  done?: boolean;
  /** The command that withdraws or cancels it, with the words of its button. */
  remove?: { label: string; command: { type: string; [key: string]: Json } };
}

/**
 * A panel for one combatant, on the GM page and its player's page: what the rules let them declare or
 * plan outside the palette. `command` names one of the ruleset's command forms (`commandForms`) shown in
 * the panel (or `act: true` its `act` command), with `fixed` fields already filled; `items` lists what
 * stands now.
 */
export interface Panel {
  title: string;
  /** One sentence on what the panel is for. */
  help?: string;
  command?: string;
  /**
   * The panel's form is the ruleset's `act` command, taken here rather than from the palette (tempo: on
   * the character's turn, how the planned action goes — its target, weapon, roll). `fixed` fills it too.
   */
  act?: boolean;
  fixed?: { [key: string]: Json };
  items?: PanelItem[];
}

/** A creature ready to add from the library, before a GM's own fills up (its stats are the ruleset's). */
export interface ReadyCreature {
  name: string;
  side?: 'pc' | 'npc';
  hp?: number;
  stats: { [key: string]: Json };
  notes?: string;
}

export interface Presentation<T extends RulesetTypes = RulesetTypes> {
  /** A few ready creatures for the library (an Orc, a Wolf…). Default: none. */
  creatures?: ReadyCreature[];
  /** Gauges of one combatant, headline first (HP is the engine's and always shown). Default: none. */
  gauges?(state: EncounterState<T>, combatant: Combatant<T>): Gauge[];
  /**
   * The phase the fight is in, when it is not someone's turn, or null: what it asks of the table ("Each
   * character chooses 2 actions in secret"). The headline shows it under the clock, which already says the
   * moment ("Round 2 · planning", "Tick 3"), so it does not say the moment again.
   * Default: null.
   */
  phase?(state: EncounterState<T>): string | null;
  /**
   * The order the screens show while the rules keep the turns to come from moving it, or null for the
   * engine's round order (`roundOrder`: who acted, the actor, the turns to come, the rest). Tempo: while
   * plans are made, PCs then NPCs in the roster's order (as it breaks ties), so a plan moves no card; the
   * tempo order shows once the count begins. Default: null.
   */
  steadyOrder?(state: EncounterState<T>): string[] | null;
  /**
   * The command a click on an action in the palette sends for the actor, before its parameters are added.
   * Default: `{type: 'act', actor, action}`. (Tempo plans an action during its planning phase.)
   */
  actionCommand?(
    state: EncounterState<T>,
    actor: string,
    action: ActionDef,
  ): { type: string; [key: string]: Json };
  /** A short word after the palette's title for what a click does ("click to plan"), or null. */
  paletteHint?(state: EncounterState<T>): string | null;
  /**
   * The choices of a parameter whose source is `rules:<name>`, for the actor: what the ruleset keeps in its
   * own state that a GM picks by name (tempo's planned actions: "Help at tempo 3"). Default: none.
   */
  choices?(state: EncounterState<T>, actor: string, name: string): ParamOption[];
  /** Panels for a combatant (opend6's declaration, tempo's secret plan). Default: none. */
  panels?(state: EncounterState<T>, combatant: Combatant<T>): Panel[];
  /**
   * The command that moves a combatant up or down the turn order, where the rules let a GM set the order
   * (an initiative set by hand): one place, or past `past` (a card dropped on another's place); null where
   * it cannot move that way. Default: no reordering.
   */
  reorder?(
    state: EncounterState<T>,
    combatant: Combatant<T>,
    direction: 'up' | 'down',
    past?: Combatant<T>,
  ): { type: string; [key: string]: Json } | null;
}

/** Order keys compared as the agenda compares instants: element by element, a prefix first. */
export function compareKeys(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** A combatant's place in an initiative order, as the rulesets that order by initiative keep it in `cs`. */
const placedSchema = z.object({ initiative: z.number(), key: z.array(z.number()) });

/**
 * `reorder` for a ruleset ordered by an initiative a GM may set (`set-initiative {actor, value}`): one more
 * than the neighbour above to move up, one less than the neighbour below to move down; past another
 * combatant (`past`, above it to move up, below it to move down), one more or one less than theirs.
 */
export function reorderByInitiative(
  state: EncounterState,
  combatant: Combatant,
  direction: 'up' | 'down',
  bounds: { min: number; max: number },
  past?: Combatant,
): { type: string; [key: string]: Json } | null {
  const ranked = state.roster
    .flatMap((id) => {
      const c = state.combatants[id];
      const placed = c?.active ? placedSchema.safeParse(c.cs) : undefined;
      return c && placed?.success ? [{ id: c.id, ...placed.data }] : [];
    })
    .sort((a, b) => compareKeys(a.key, b.key));
  const i = ranked.findIndex((c) => c.id === combatant.id);
  if (i < 0) return null;
  const j = past ? ranked.findIndex((c) => c.id === past.id) : direction === 'up' ? i - 1 : i + 1;
  // Past someone on the other side is the other direction: not this move.
  if (j < 0 || (direction === 'up' ? j >= i : j <= i)) return null;
  const other = ranked[j];
  if (!other) return null;
  const value = other.initiative + (direction === 'up' ? 1 : -1);
  if (value < bounds.min || value > bounds.max) return null;
  return { type: 'set-initiative', actor: combatant.id, value };
}

/** The palette's command for an action: the ruleset's, or `act`. */
export function actionCommandOf(
  present: Presentation | undefined,
  state: EncounterState,
  actor: string,
  action: ActionDef,
): { type: string; [key: string]: Json } {
  return present?.actionCommand?.(state, actor, action) ?? { type: 'act', actor, action: action.id };
}
