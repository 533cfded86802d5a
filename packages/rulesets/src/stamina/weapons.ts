import { type ActionDef, combatantIn } from '@roundkeeper/engine';
import type { Weapon } from './options.js';
import type { State } from './types.js';

/**
 * What an action does to the weapon it is made with:
 * - ready / stow: Ready/Stow Weapon, Ready/stow weapon/ammo ("become readied … or the character sheaths … one or
 *   more readied … weapons");
 * - load: Load weapon;
 * - loose: Loose/shoot/fire spends the load ("a readied, loaded, ranged weapon");
 * - throw: Throw Weapon — the weapon leaves the hand;
 * - null: the weapon is used and stays as it is (Off-hand attack, an attack with a named weapon).
 */
export type WeaponChange = 'ready' | 'stow' | 'load' | 'loose' | 'throw';

export interface WeaponUse {
  weapons: string[];
  change: WeaponChange | null;
}

export interface WeaponInput {
  /** The weapon (Ready/stow: one or more) the action is made with, by its name on the sheet. */
  weapon?: string | string[] | undefined;
  /** Ready/stow: stow instead of ready. */
  stow?: boolean | undefined;
  /** Ready/stow weapon/ammo: ready or stow ammunition, not a weapon. */
  ammo?: boolean | undefined;
}

interface WeaponRefusal {
  code: string;
  reason: string;
}

const refuse = (reason: string, code = 'weapon/not-ready'): WeaponRefusal => ({ code, reason });

export function isWeaponRefusal(x: WeaponUse | WeaponRefusal | null): x is WeaponRefusal {
  return x !== null && 'code' in x;
}

/** "Bow and Crossbow", "Bow". */
function list(names: string[]): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/**
 * The weapon an action is made with and what it does to it, or why the character cannot make it: the text's
 * actions that need "a readied, loaded, ranged weapon", "a readied, throwing weapon", "a readied weapon … in
 * their off hand", and the actions that ready, stow and load weapons. `made` is the action actually made (a
 * Free attack's chosen action). Null when the action involves no weapon the sheet tracks.
 */
export function weaponFor(
  state: State,
  id: string,
  made: ActionDef,
  input: WeaponInput,
): WeaponUse | WeaponRefusal | null {
  const c = combatantIn(state, id);
  const name = c.name;
  const sheet = c.stats.weapons;
  const all = Object.keys(sheet);
  const readied = (w: string) => c.cs.readied.includes(w);
  const loaded = (w: string) => c.cs.loaded.includes(w);
  const named = typeof input.weapon === 'string' ? [input.weapon] : (input.weapon ?? []);
  for (const w of named) {
    if (!Object.hasOwn(sheet, w)) {
      return refuse(
        `${name} has no weapon called "${w}" (weapons on the sheet: ${all.length ? list(all) : 'none'}). Add it to the sheet's weapons to use it.`,
        'weapon/unknown',
      );
    }
  }
  const kindOf = (w: string): Weapon['kind'] | undefined => sheet[w]?.kind;
  /** The one weapon the action is made with: the named one, else the first that qualifies. */
  const pick = (fits: (w: string) => boolean, ok: (w: string) => boolean): string | undefined =>
    named.length ? named.find((w) => fits(w) && ok(w)) : all.find((w) => fits(w) && ok(w));
  const why = (fits: (w: string) => boolean, problem: (w: string) => string | null): string => {
    const considered = (named.length ? named : all).filter(fits);
    const problems = considered.map(problem).filter((x): x is string => x !== null);
    return problems.length ? problems.join('; ') : 'none on the sheet';
  };

  switch (made.id) {
    case 'loose': {
      // "Make an attack with a readied, loaded, ranged weapon."
      const ranged = (w: string) => kindOf(w) === 'ranged';
      const w = pick(ranged, (x) => readied(x) && loaded(x));
      if (w) return { weapons: [w], change: 'loose' };
      const notReadied = (named.length ? named : all).filter(ranged).some((x) => !readied(x));
      const one = (named.length ? named : all).filter(ranged).length === 1 ? 'it' : 'one';
      const fix = notReadied
        ? `Ready ${one} (Ready/stow weapon/ammo) and load it (Load weapon) first.`
        : (named.length ? named : all).some(ranged)
          ? `Load ${one} (Load weapon) first.`
          : 'Add a ranged weapon to the sheet to shoot.';
      const problem = (x: string) =>
        !readied(x) ? `${x} is not readied` : !loaded(x) ? `${x} is not loaded` : null;
      const wrongKind = named.filter((x) => !ranged(x));
      if (wrongKind.length)
        return refuse(`${list(wrongKind)} is not a ranged weapon; Loose/shoot/fire needs one.`);
      return refuse(`${name} has no readied, loaded ranged weapon (${why(ranged, problem)}). ${fix}`);
    }
    case 'throw-weapon': {
      // "Make an attack with a readied, throwing weapon."
      const throwing = (w: string) => kindOf(w) === 'throwing';
      const w = pick(throwing, readied);
      if (w) return { weapons: [w], change: 'throw' };
      const problem = (x: string) => (readied(x) ? null : `${x} is not readied`);
      return refuse(
        `${name} has no readied throwing weapon (${why(throwing, problem)}). Ready one (Ready/Stow Weapon) first, or mark a weapon on the sheet as a throwing one.`,
      );
    }
    case 'off-hand-attack': {
      // "with a readied weapon the character is wielding in their off hand"
      const offHand = (w: string) => sheet[w]?.offHand ?? false;
      const w = pick(offHand, readied);
      if (w) return { weapons: [w], change: null };
      const problem = (x: string) => (readied(x) ? null : `${x} is not readied`);
      return refuse(
        `${name} has no readied weapon in the off hand (${why(offHand, problem)}). Ready one (Ready/Stow Weapon) first, or mark a weapon on the sheet as wielded in the off hand.`,
      );
    }
    case 'load-weapon': {
      // "Refer to the weapon's description": a readied ranged weapon that is not loaded yet.
      const ranged = (w: string) => kindOf(w) === 'ranged';
      const w = pick(ranged, (x) => readied(x) && !loaded(x));
      if (w) return { weapons: [w], change: 'load' };
      const problem = (x: string) =>
        !readied(x) ? `${x} is not readied` : loaded(x) ? `${x} is already loaded` : null;
      return refuse(
        `${name} has no readied ranged weapon to load (${why(ranged, problem)}). Ready it first (Ready/stow weapon/ammo); a loaded weapon is loosed before it is loaded again.`,
      );
    }
    case 'ready-stow-weapon':
    case 'ready-stow-ammo': {
      const ammoAction = made.id === 'ready-stow-ammo';
      if (input.ammo) {
        if (!ammoAction)
          return refuse(
            'Ready/Stow Weapon readies weapons; ammunition is readied with Ready/stow weapon/ammo.',
            'weapon/ammo',
          );
        return null;
      }
      // Ready/stow weapon/ammo: "a ranged weapon"; Ready/Stow Weapon: "one or more weapons".
      const fits = (w: string) => !ammoAction || kindOf(w) !== 'melee';
      const wrong = named.filter((w) => !fits(w));
      if (wrong.length) {
        return refuse(
          `${list(wrong)} is not a ranged weapon; ready or stow it with Ready/Stow Weapon.`,
          'weapon/not-ranged',
        );
      }
      if (input.stow) {
        const notReadied = named.filter((w) => !readied(w));
        if (notReadied.length)
          return refuse(
            `${list(notReadied)} is not readied, so there is nothing to stow.`,
            'weapon/not-readied',
          );
        if (named.length) return { weapons: named, change: 'stow' };
        const candidates = all.filter((w) => fits(w) && readied(w));
        if (candidates.length === 1) return { weapons: candidates, change: 'stow' };
        return refuse(
          candidates.length
            ? `${name} has ${list(candidates)} readied; name the weapon to stow.`
            : `${name} has no readied weapon to stow.`,
          'weapon/which',
        );
      }
      const already = named.filter(readied);
      if (already.length)
        return refuse(
          `${list(already)} is already readied; stow it, or ready another weapon.`,
          'weapon/readied',
        );
      if (named.length) return { weapons: named, change: 'ready' };
      const candidates = all.filter((w) => fits(w) && !readied(w));
      if (candidates.length === 1) return { weapons: candidates, change: 'ready' };
      if (candidates.length > 1) {
        return refuse(
          `${name} could ready ${list(candidates)}; name the weapon (or weapons) to ready.`,
          'weapon/which',
        );
      }
      // Nothing on the sheet left to ready: ammunition (Ready/stow weapon/ammo), or a weapon the sheet does not
      // list — an untracked readying the GM keeps in mind.
      return null;
    }
    default: {
      // Any other attack "with the character's body or readied melee weapon": a named weapon must be readied.
      if (!named.length) return null;
      const notReadied = named.filter((w) => !readied(w));
      if (notReadied.length) {
        return refuse(
          `${list(notReadied)} is not readied; ready it (Ready/Stow Weapon) first, or attack with another weapon or the body.`,
        );
      }
      return { weapons: named.slice(0, 1), change: null };
    }
  }
}

/** The weapons' state after the change (ready, stow, load, loose, throw). */
export function applyWeaponChange(
  readied: string[],
  loaded: string[],
  use: WeaponUse,
): { readied: string[]; loaded: string[] } {
  const ws = use.weapons;
  switch (use.change) {
    case 'ready':
      return { readied: [...readied, ...ws.filter((w) => !readied.includes(w))], loaded };
    case 'stow':
      return { readied: readied.filter((w) => !ws.includes(w)), loaded };
    case 'load':
      return { readied, loaded: [...loaded, ...ws.filter((w) => !loaded.includes(w))] };
    case 'loose':
      return { readied, loaded: loaded.filter((w) => !ws.includes(w)) };
    case 'throw':
      return { readied: readied.filter((w) => !ws.includes(w)), loaded };
    default:
      return { readied, loaded };
  }
}

/** How the log says it: "Bow readied", "Bow loosed, now unloaded", "with Dagger". */
export function describeWeaponUse(use: WeaponUse, multiTurn: boolean): string {
  const ws = list(use.weapons);
  switch (use.change) {
    case 'ready':
      return `${ws} readied`;
    case 'stow':
      return `${ws} stowed`;
    case 'load':
      return multiTurn ? `loading ${ws}` : `${ws} loaded`;
    case 'loose':
      return `${ws} loosed, now unloaded`;
    case 'throw':
      return `${ws} thrown`;
    default:
      return `with ${ws}`;
  }
}
