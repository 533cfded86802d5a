import type { Combatant, EncounterState, HitPoints, Viewer } from './types.js';

/**
 * HP as the GM chooses (issue 33): how the table and the players see PC HP and NPC HP — as numbers, as
 * descriptors (unhurt, hurt, bloodied, down) or not at all. An encounter setting every ruleset has (not a
 * ruleset option), changed with the core `set-hp-display` command. The GM always sees numbers, and a
 * player always sees their own character's; `view` and `viewEvent` take the rest out, so the server never
 * sends what is hidden.
 */
export const HP_SHOWN = ['numbers', 'descriptors', 'hidden'] as const;
export type HpShown = (typeof HP_SHOWN)[number];
export type HpDisplay = { pc: HpShown; npc: HpShown };
export const HP_WORDS = ['unhurt', 'hurt', 'bloodied', 'down'] as const;
export type HpWord = (typeof HP_WORDS)[number];

/** Numbers for everyone: an encounter that never set it. */
export const DEFAULT_HP_DISPLAY: HpDisplay = Object.freeze({ pc: 'numbers', npc: 'numbers' }) as HpDisplay;

export const hpDisplayOf = (state: Pick<EncounterState, 'hpDisplay'>): HpDisplay =>
  state.hpDisplay ?? DEFAULT_HP_DISPLAY;

/** The descriptor of hit points: down at 0 or below, bloodied at half or below, hurt below the maximum. */
export function hpWord(hp: HitPoints): HpWord {
  if (hp.current <= 0) return 'down';
  if (hp.current >= hp.max) return 'unhurt';
  return hp.current * 2 <= hp.max ? 'bloodied' : 'hurt';
}

/**
 * How a viewer sees a combatant's HP: `numbers` for the GM and the combatant's own player; otherwise the
 * setting for its side. A combatant no longer in the state (its side unknown) gets the stricter of the two.
 */
export function hpShownTo(state: EncounterState, viewer: Viewer, combatant: string): HpShown {
  if (viewer.role === 'gm') return 'numbers';
  if (viewer.role === 'player' && viewer.combatants.includes(combatant)) return 'numbers';
  const display = hpDisplayOf(state);
  const c = Object.hasOwn(state.combatants, combatant) ? state.combatants[combatant] : undefined;
  if (c) return display[c.side];
  return HP_SHOWN[Math.max(HP_SHOWN.indexOf(display.pc), HP_SHOWN.indexOf(display.npc))]!;
}

/** Whether anyone but the GM and a combatant's player sees less than numbers. */
export const hpRedacted = (state: Pick<EncounterState, 'hpDisplay'>): boolean => {
  const d = hpDisplayOf(state);
  return d.pc !== 'numbers' || d.npc !== 'numbers';
};

/** A combatant as a viewer sees its HP: numbers, a descriptor in place of them (`hpWord`), or none. */
export function withHpShown(c: Combatant, shown: HpShown): Combatant {
  if (shown === 'numbers' || !c.hp) return c;
  const { hp, ...rest } = c;
  return shown === 'hidden' ? rest : { ...rest, hpWord: hpWord(hp) };
}

/** Words for the setting, for log lines and refusals. */
export function describeHpDisplay(d: HpDisplay): string {
  const as = (s: HpShown) => (s === 'hidden' ? 'hidden' : `as ${s}`);
  return `PC HP ${as(d.pc)}, NPC HP ${as(d.npc)} for the table and players`;
}
