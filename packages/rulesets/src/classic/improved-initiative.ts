import type { ScenarioImporter } from '@roundkeeper/engine';

/**
 * Improved Initiative's export, read into classic creatures.
 *
 * Improved Initiative keeps a GM's creatures, player characters and saved encounters in the browser and
 * exports them as one JSON file (`improved-initiative.json`): an object whose keys name a list and an id
 * (`Creatures.<id>`, `PersistentCharacters.<id>`, `SavedEncounters.<id>`; older exports prefix them with
 * `ImprovedInitiative.` and hold each value as JSON text, with the list of ids under the list's own key).
 * A single stat block, a list of them, or one saved encounter are read too.
 *
 * What maps: a name, HP, Armor Class, the initiative modifier (the Dexterity modifier where the stat block
 * has none), whether it is a player character, and notes. Everything else a stat block carries (actions,
 * traits, saves, skills, speed…) has no place on classic's sheet: it is listed by name in `notMapped`,
 * never dropped silently.
 */

/** A creature as classic's library and its add form take it. */
export interface ImportedCreature {
  name: string;
  side: 'pc' | 'npc';
  hp?: number;
  notes?: string;
  stats: { initiative: number; armorClass?: number };
}

/** A combatant of a saved encounter: the creature, with what the encounter had made of it. */
export interface ImportedCombatant extends ImportedCreature {
  /** Its HP when the encounter was saved, when below its maximum. */
  currentHp?: number;
  hidden?: boolean;
}

export interface ImprovedInitiativeImport {
  creatures: ImportedCreature[];
  encounters: { name: string; combatants: ImportedCombatant[] }[];
  /** One sentence per creature or encounter with what did not map ("Goblin: Actions, Traits (…)"). */
  notMapped: string[];
}

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v)
    ? v
    : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))
      ? Number(v)
      : undefined;
const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

/** Fields of a stat block that carry something classic's sheet has no place for, in reading order. */
const UNMAPPED_LISTS = [
  'Traits',
  'Actions',
  'BonusActions',
  'Reactions',
  'LegendaryActions',
  'MythicActions',
  'Saves',
  'Skills',
  'Speed',
  'Senses',
  'Languages',
  'DamageVulnerabilities',
  'DamageResistances',
  'DamageImmunities',
  'ConditionImmunities',
] as const;
const UNMAPPED_TEXT = ['Challenge', 'ImageURL', 'Type', 'Source'] as const;

/** Limits of classic's sheet (`classicStats`) and the engine's combatant fields. */
const LIMITS = {
  name: 80,
  notes: 10_000,
  hp: 1_000_000,
  initiative: [-20, 50],
  armorClass: [0, 50],
} as const;

const dexModifier = (abilities: unknown): number | undefined => {
  const dex = isObj(abilities) ? num(abilities.Dex) : undefined;
  return dex === undefined ? undefined : Math.floor((dex - 10) / 2);
};

const words = (label: string) => label.replace(/([a-z])([A-Z])/g, '$1 $2');

/** A stat block read into a creature, and the names of what did not map. */
function readStatBlock(block: Obj, extraNotes: string[]): { creature: ImportedCreature; lost: string[] } {
  const lost: string[] = [];
  const name = (str(block.Name) || 'Unnamed creature').slice(0, LIMITS.name);
  const hpBlock = isObj(block.HP) ? block.HP : {};
  const acBlock = isObj(block.AC) ? block.AC : {};
  const hpValue = num(hpBlock.Value);
  const acValue = num(acBlock.Value);
  const initiative = num(block.InitiativeModifier) ?? dexModifier(block.Abilities) ?? 0;

  const stats: ImportedCreature['stats'] = { initiative: 0 };
  if (
    Number.isInteger(initiative) &&
    initiative >= LIMITS.initiative[0] &&
    initiative <= LIMITS.initiative[1]
  )
    stats.initiative = initiative;
  else
    lost.push(
      `initiative modifier ${initiative} (classic takes ${LIMITS.initiative[0]} to ${LIMITS.initiative[1]})`,
    );
  if (acValue !== undefined) {
    if (Number.isInteger(acValue) && acValue >= LIMITS.armorClass[0] && acValue <= LIMITS.armorClass[1])
      stats.armorClass = acValue;
    else lost.push(`AC ${acValue} (classic takes ${LIMITS.armorClass[0]} to ${LIMITS.armorClass[1]})`);
  }
  const creature: ImportedCreature = { name, side: str(block.Player) === 'player' ? 'pc' : 'npc', stats };
  if (hpValue !== undefined) {
    if (Number.isInteger(hpValue) && hpValue >= 0 && hpValue <= LIMITS.hp) creature.hp = hpValue;
    else lost.push(`HP ${hpValue} (a whole number from 0 to ${LIMITS.hp.toLocaleString('en')})`);
  }

  const notes = [
    str(hpBlock.Notes) && `HP ${str(hpBlock.Notes)}`,
    str(acBlock.Notes) && `AC ${str(acBlock.Notes)}`,
    str(block.Description),
    ...extraNotes,
  ].filter(Boolean);
  if (notes.length) {
    const text = notes.join('\n');
    creature.notes = text.slice(0, LIMITS.notes);
    if (text.length > LIMITS.notes) lost.push(`notes past ${LIMITS.notes.toLocaleString('en')} characters`);
  }

  for (const key of UNMAPPED_LISTS) {
    const v = block[key];
    if (Array.isArray(v) && v.length) lost.push(words(key));
  }
  for (const key of UNMAPPED_TEXT) if (str(block[key]) && str(block[key]) !== '0') lost.push(words(key));
  if (block.InitiativeSpecialRoll || block.InitiativeAdvantage) lost.push('initiative advantage or take-ten');
  if (isObj(block.Abilities) && Object.keys(block.Abilities).length) lost.push('ability scores');
  return { creature, lost };
}

const lostSentence = (who: string, lost: string[]) => `${who}: ${lost.join(', ')}`;

function readCombatant(c: Obj, notMapped: string[], where: string): ImportedCombatant | undefined {
  if (!isObj(c.StatBlock)) {
    notMapped.push(`${where}: a combatant without a stat block`);
    return undefined;
  }
  const notes = str(c.CurrentNotes) ? [str(c.CurrentNotes)] : [];
  const { creature, lost } = readStatBlock(c.StatBlock, notes);
  const alias = str(c.Alias);
  const combatant: ImportedCombatant = { ...creature, name: (alias || creature.name).slice(0, LIMITS.name) };
  const current = num(c.CurrentHP);
  if (current !== undefined && creature.hp !== undefined && current >= 0 && current < creature.hp)
    combatant.currentHp = current;
  if (c.Hidden === true) combatant.hidden = true;
  if (Array.isArray(c.Tags) && c.Tags.length) lost.push('conditions (tags)');
  if (num(c.TemporaryHP)) lost.push('temporary HP');
  if (lost.length) notMapped.push(lostSentence(`${where} · ${combatant.name}`, lost));
  return combatant;
}

/** A JSON value that older exports store as text. */
const parsed = (v: unknown): unknown => {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v);
  } catch {
    return undefined;
  }
};

const looksLikeStatBlock = (v: unknown): v is Obj =>
  isObj(v) && typeof v.Name === 'string' && (isObj(v.HP) || isObj(v.AC));
const looksLikeEncounter = (v: unknown): v is Obj => isObj(v) && Array.isArray(v.Combatants);

/**
 * Reads an Improved Initiative export (or one stat block, a list of them, one saved encounter).
 * Throws an `Error` with a sentence when the file is none of these.
 */
export function fromImprovedInitiative(data: unknown): ImprovedInitiativeImport {
  const out: ImprovedInitiativeImport = { creatures: [], encounters: [], notMapped: [] };
  const addBlock = (block: Obj, extraNotes: string[] = []) => {
    const { creature, lost } = readStatBlock(block, extraNotes);
    out.creatures.push(creature);
    if (lost.length) out.notMapped.push(lostSentence(creature.name, lost));
  };
  const addEncounter = (enc: Obj) => {
    const name = str(enc.Name) || 'Imported encounter';
    const combatants = (enc.Combatants as unknown[])
      .map((c) => (isObj(c) ? readCombatant(c, out.notMapped, name) : undefined))
      .filter((c): c is ImportedCombatant => c !== undefined);
    out.encounters.push({ name, combatants });
  };

  if (Array.isArray(data)) {
    for (const v of data) if (looksLikeStatBlock(v)) addBlock(v);
  } else if (looksLikeStatBlock(data)) addBlock(data);
  else if (looksLikeEncounter(data)) addEncounter(data);
  else if (isObj(data)) {
    for (const [rawKey, rawValue] of Object.entries(data)) {
      const key = rawKey.replace(/^ImprovedInitiative\./, '');
      const [list, id] = [key.slice(0, key.indexOf('.')), key.slice(key.indexOf('.') + 1)];
      if (key.indexOf('.') < 0 || !id) continue; // a list of ids, or a setting
      const value = parsed(rawValue);
      if (list === 'Creatures' && looksLikeStatBlock(value)) addBlock(value);
      else if (list === 'PersistentCharacters' && isObj(value) && looksLikeStatBlock(value.StatBlock)) {
        const notes = str(value.Notes) ? [str(value.Notes)] : [];
        addBlock({ ...value.StatBlock, Player: 'player' }, notes);
      } else if (list === 'SavedEncounters' && looksLikeEncounter(value)) addEncounter(value);
      else if (list === 'Spells')
        out.notMapped.push(`spell ${str(isObj(value) ? value.Name : '') || id}: classic tracks no spells`);
    }
  }
  if (!out.creatures.length && !out.encounters.length)
    throw new Error(
      'This file holds no Improved Initiative creatures, characters or encounters: export them from Improved Initiative’s Settings → Account (“Export all”), or choose one creature’s JSON.',
    );
  return out;
}

/**
 * A classic scenario from an import: the saved encounter's combatants when the file has one (the first,
 * or the one named), otherwise every creature and character of the file, once each. Names are made
 * distinct the way a GM would number a second Goblin ("Goblin 2").
 */
export function improvedInitiativeScenario(
  read: ImprovedInitiativeImport,
  encounterName?: string,
): { schema: 1; name: string; ruleset: 'classic'; combatants: Record<string, unknown>[] } {
  const encounter =
    encounterName === undefined ? read.encounters[0] : read.encounters.find((e) => e.name === encounterName);
  if (encounterName !== undefined && !encounter)
    throw new Error(
      `The file has no encounter named "${encounterName}"; it has ${read.encounters.map((e) => `"${e.name}"`).join(', ') || 'none'}.`,
    );
  const list: ImportedCombatant[] = encounter ? encounter.combatants : read.creatures;
  const used = new Set<string>();
  const distinct = (name: string) => {
    let n = 2;
    let out = name;
    while (used.has(out.toLowerCase())) out = `${name.slice(0, LIMITS.name - 4)} ${n++}`;
    used.add(out.toLowerCase());
    return out;
  };
  const combatants = list.map(({ currentHp, hp, ...c }) => {
    const entry: Record<string, unknown> = { ...c, name: distinct(c.name) };
    if (hp !== undefined) entry.hp = currentHp === undefined ? hp : { current: currentHp, max: hp };
    return entry;
  });
  return {
    schema: 1,
    name: encounter?.name ?? 'Imported from Improved Initiative',
    ruleset: 'classic',
    combatants,
  };
}

/**
 * `roundkeeper import` of an Improved Initiative export: a file that names a `ruleset` is a scenario file,
 * not an export; anything else is read when it holds creatures, characters or encounters.
 */
export const improvedInitiativeImporter: ScenarioImporter = {
  format: 'Improved Initiative',
  read(data, pick) {
    if (isObj(data) && 'ruleset' in data) return undefined;
    let read: ImprovedInitiativeImport;
    try {
      read = fromImprovedInitiative(data);
    } catch {
      return undefined;
    }
    return { scenario: improvedInitiativeScenario(read, pick), notMapped: read.notMapped };
  },
  encounters(data) {
    if (isObj(data) && 'ruleset' in data) return undefined;
    try {
      return fromImprovedInitiative(data).encounters.map((e) => e.name);
    } catch {
      return undefined;
    }
  },
  creatures(data) {
    if (isObj(data) && 'ruleset' in data) return undefined;
    try {
      const read = fromImprovedInitiative(data);
      return { creatures: read.creatures.map((c) => ({ ...c })), notMapped: read.notMapped };
    } catch {
      return undefined;
    }
  },
};
