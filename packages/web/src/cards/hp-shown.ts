import type { EncounterView, HpDisplay } from '@roundkeeper/engine';

/**
 * HP as the table and players see it: the GM's choice once made (the server then sends only what it
 * allows), else the page's own default — PC HP as numbers, NPC HP in words.
 */
export function shownHp(display: EncounterView['hpDisplay']): HpDisplay {
  return display ?? { pc: 'numbers', npc: 'descriptors' };
}

/**
 * Whether the table and players read NPC HP as numbers: as the GM's choice says once made; before it,
 * only on a table link that asks for them (`&hp=all`).
 */
export function npcNumbers(view: Pick<EncounterView, 'hpDisplay'>, asked: boolean): boolean {
  return view.hpDisplay ? view.hpDisplay.npc === 'numbers' : asked;
}
