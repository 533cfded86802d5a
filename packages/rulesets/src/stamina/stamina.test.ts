import {
  type AnyRuleset,
  type Command,
  isRejection,
  legalActions,
  renderTimelineAscii,
  view,
  viewLog,
} from '@roundkeeper/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkInvariants,
  encounter,
  must,
  refused,
  registryWith,
  runFrozen,
  stateOf,
} from '../testing/harness.js';
import { STAMINA_CATALOG } from './catalog.js';
import { coverBonus } from './conditions.js';
import { type StaminaTypes, stamina } from './index.js';
import { recklessDefense } from './rules.js';

const registry = registryWith(stamina as unknown as AnyRuleset);
type Enc = ReturnType<typeof encounter>;
const st = (enc: Enc) => stateOf<StaminaTypes>(enc);
const cs = (enc: Enc, id: string) => st(enc).combatants[id]!.cs;

/** A readied, loaded bow, a readied off-hand dagger and a readied throwing axe. */
const kit = {
  Bow: { kind: 'ranged', readied: true, loaded: true },
  Dagger: { kind: 'melee', offHand: true, readied: true },
  Axe: { kind: 'throwing', readied: true },
};
/** A readied bow, not loaded. */
const unloaded = { Bow: { kind: 'ranged', readied: true } };
const duo = [
  {
    id: 'ana',
    name: 'Ana',
    side: 'pc',
    stats: { stamina: 6, defense: 8, reflexes: 3, baseMovement: 9, weapons: kit },
  },
  { id: 'bren', name: 'Bren', side: 'npc', stats: { stamina: 6, defense: 8, weapons: kit } },
];
const mage = {
  id: 'mira',
  name: 'Mira',
  side: 'pc',
  stats: {
    stamina: 8,
    arcane: true,
    ranks: { arcaneAptitude: 2, personalDefense: 1, regainComposure: 2 },
    weapons: kit,
  },
};

/** Ana acts first, Bren second (fixed initiative, kept each round unless a test gives new values). */
function fight(options: Record<string, unknown> = {}, combatants: Array<Record<string, unknown>> = duo): Enc {
  const enc = encounter(
    { ruleset: 'stamina', options: { recheckInitiative: false, ...options }, combatants, seed: 5 },
    registry,
  );
  const initiative: Record<string, number> = {};
  combatants.forEach((c, i) => {
    initiative[c.id as string] = 20 - i;
  });
  must(enc, { type: 'start', initiative });
  return enc;
}

const act = (actor: string, action: string, extra: Record<string, unknown> = {}): Command => ({
  type: 'act',
  actor,
  action,
  ...extra,
});

/** Ends the current turn, then further turns until it is `who`'s turn. */
function nextUntil(enc: Enc, who: string, initiative?: Record<string, number>): void {
  const next = initiative ? { type: 'next', initiative } : { type: 'next' };
  must(enc, next);
  for (let i = 0; i < 10 && enc.state.current !== who; i++) must(enc, next);
  expect(enc.state.current).toBe(who);
}

describe('Round-based play: turns in initiative order; initiative rechecked each round', () => {
  it('acts in initiative order and starts a new round after everyone has acted', () => {
    const enc = fight({}, [...duo, mage]);
    const seen = [enc.state.current];
    for (let i = 0; i < 2; i++) {
      must(enc, { type: 'next' });
      seen.push(enc.state.current);
    }
    expect(seen).toEqual(['ana', 'bren', 'mira']);
    expect(enc.state.agenda.filter((e) => e.kind === 'turn')).toHaveLength(0);
    must(enc, { type: 'next', initiative: { mira: 9, ana: 3, bren: 5 } });
    expect(enc.state.round).toBe(2);
    expect(enc.state.current).toBe('mira');
    expect(enc.state.agenda.map((e) => [e.combatant, e.at.round])).toEqual([
      ['bren', 2],
      ['ana', 2],
    ]);
  });

  it('"recheck everyones initiative": rolls the initiative formula for everyone at each new round', () => {
    const enc = fight({ recheckInitiative: true, initiativeDice: '1d10+@initiative' });
    must(enc, { type: 'next' });
    const entries = must(enc, { type: 'next' });
    const rolls = entries.filter((e) => e.event.type === 'dice/rolled' && e.event.purpose === 'initiative');
    expect(rolls.map((r) => r.event.combatant)).toEqual(['ana', 'bren']);
    for (const r of rolls) {
      expect(cs(enc, r.event.combatant as string).initiative).toBe((r.event.roll as { total: number }).total);
    }
  });

  it('keeps the order when rechecking is switched off', () => {
    const enc = fight({ recheckInitiative: false });
    must(enc, { type: 'next' });
    const entries = must(enc, { type: 'next' });
    expect(entries.some((e) => e.event.type === 'dice/rolled')).toBe(false);
    expect(enc.state.current).toBe('ana');
  });

  it('breaks a tie by the higher modifier, then roster order', () => {
    const enc = encounter(
      { ruleset: 'stamina', combatants: [duo[0]!, { ...duo[1]!, stats: { initiative: 2 } }] },
      registry,
    );
    must(enc, { type: 'start', initiative: { ana: 7, bren: 7 } });
    expect(enc.state.current).toBe('bren');
  });
});

describe('Catalog: every action of the text with its stamina cost and turn requirement', () => {
  const expected: Array<[string, number, number]> = [
    ['walk', 0, 1],
    ['dash', 1, 1],
    ['sprint', 3, 1],
    ['swim', 2, 1],
    ['climb', 2, 1],
    ['jump', 2, 1],
    ['basic-attack', 1, 1],
    ['bash', 2, 1],
    ['bull-rush', 2, 1],
    ['disarm', 2, 1],
    ['distracting-attack', 2, 1],
    ['flurry-of-blows', 3, 1],
    ['half-sword', 2, 1],
    ['lunge', 2, 1],
    ['off-hand-attack', 1, 0],
    ['power-attack', 2, 1],
    ['quick-attack', 2, 0],
    ['ready-stow-weapon', 0, 1],
    ['reckless-attack', 2, 1],
    ['tackle', 2, 1],
    ['trip', 2, 1],
    ['aim', 0, 1],
    ['load-weapon', 0, 1],
    ['loose', 0, 1],
    ['ready-stow-ammo', 0, 1],
    ['throw-spell', 0, 1],
    ['throw-weapon', 1, 1],
    ['cast-cantrip', 2, 1],
    ['cast-gated-spell', 0, 1],
    ['cast-ungated-spell', 0, 1],
    ['gather-arcane-energy', 0, 1],
    ['shape-arcane-energy', 0, 1],
    ['release-crafted-effect', 0, 1],
    ['defensive-stance', 0, 1],
    ['disengage', 0, 1],
    ['dodge', 0, 1],
    ['restoration', 0, 1],
    ['scramble', 2, 0],
    ['free-attack', 0, 0],
    ['take-cover', 2, 0],
  ];
  it("lists all 40 actions with the text's costs", () => {
    expect(STAMINA_CATALOG.map((a) => [a.id, a.cost.stamina, a.cost.turnRequirement])).toEqual(expected);
    for (const a of STAMINA_CATALOG) expect(a.text.length).toBeGreaterThan(10);
  });

  it('Free attack(*): "This reaction\'s stamina cost is that of the action taken"', () => {
    const enc = fight();
    must(enc, act('bren', 'free-attack', { target: 'ana', as: 'throw-weapon' }));
    expect(cs(enc, 'bren').stamina).toBe(5);
    const enc2 = fight();
    must(enc2, act('bren', 'free-attack', { target: 'ana', as: 'loose' }));
    expect(cs(enc2, 'bren').stamina).toBe(6);
    expect(refused(enc2, act('bren', 'free-attack', { target: 'ana', as: 'bash' })).code).toBe(
      'reaction/used',
    );
    const enc3 = fight();
    expect(refused(enc3, act('bren', 'free-attack', { target: 'ana', as: 'bash' })).code).toBe(
      'free-attack/as',
    );
  });

  it('Free attack: "against that opponent" — never against oneself, nor any attack', () => {
    const enc = fight();
    const self = refused(enc, act('bren', 'free-attack', { target: 'bren', as: 'basic-attack' }));
    expect(self.code).toBe('target/self');
    expect(self.message).toContain('name another combatant as the target');
    expect(refused(enc, act('ana', 'basic-attack', { target: 'ana' })).code).toBe('target/self');
    must(enc, act('bren', 'free-attack', { target: 'ana', as: 'basic-attack' }));
  });

  it('Load weapon(varies): "Refer to the weapon\'s description" — the weapon\'s stats, or the command', () => {
    const enc = fight({}, [
      { ...duo[0]!, stats: { stamina: 6, loadStamina: 2, loadTurnRequirement: 0, weapons: unloaded } },
      duo[1]!,
    ]);
    const e = must(enc, act('ana', 'load-weapon'));
    const acted = e.find((x) => x.event.type === 'stamina/acted')!.event;
    expect([acted.stamina, acted.turnRequirement]).toEqual([2, 0]);
    must(enc, act('ana', 'basic-attack', { target: 'bren' }));
    const enc2 = fight({}, [{ ...duo[0]!, stats: { stamina: 6, weapons: unloaded } }, duo[1]!]);
    must(enc2, act('ana', 'load-weapon', { load: { stamina: 1, turnRequirement: 1 } }));
    expect(cs(enc2, 'ana').stamina).toBe(5);
    expect(refused(enc2, act('ana', 'basic-attack', { target: 'bren' })).code).toBe('turn/requirement-taken');
  });
});

describe("Weapons: readied and loaded, where the text's actions need them", () => {
  const armed = (weapons: Record<string, unknown>) =>
    fight({}, [{ ...duo[0]!, stats: { stamina: 9, weapons } }, duo[1]!]);

  it('Ready/Stow Weapon readies "one or more weapons"; with several to choose from it asks which', () => {
    const enc = armed({ Sword: {}, Shield: {}, Bow: { kind: 'ranged' } });
    const which = refused(enc, act('ana', 'ready-stow-weapon', { reduce: true }));
    expect(which.code).toBe('weapon/which');
    expect(which.message).toBe(
      'Ana could ready Sword, Shield and Bow; name the weapon (or weapons) to ready.',
    );
    must(enc, act('ana', 'ready-stow-weapon', { weapon: ['Sword', 'Shield'] }));
    expect(cs(enc, 'ana').readied).toEqual(['Sword', 'Shield']);
    // Ready/stow weapon/ammo readies "a ranged weapon": the only stowed one.
    must(enc, act('ana', 'ready-stow-ammo', { reduce: true }));
    expect(cs(enc, 'ana').readied).toEqual(['Sword', 'Shield', 'Bow']);
  });

  it('refuses weapons the sheet does not list, and readying a readied one', () => {
    const enc = armed({ Sword: { readied: true } });
    expect(refused(enc, act('ana', 'ready-stow-weapon', { weapon: 'Spear' })).message).toBe(
      'Ana has no weapon called "Spear" (weapons on the sheet: Sword). Add it to the sheet\'s weapons to use it.',
    );
    expect(refused(enc, act('ana', 'ready-stow-weapon', { weapon: 'Sword' })).code).toBe('weapon/readied');
    expect(refused(enc, act('ana', 'ready-stow-ammo', { weapon: 'Sword' })).code).toBe('weapon/not-ranged');
  });

  it('an attack with a named weapon needs it readied; with the body it needs none', () => {
    const enc = armed({ Sword: {} });
    expect(refused(enc, act('ana', 'basic-attack', { target: 'bren', weapon: 'Sword' })).message).toBe(
      'Sword is not readied; ready it (Ready/Stow Weapon) first, or attack with another weapon or the body.',
    );
    must(enc, act('ana', 'basic-attack', { target: 'bren' }));
  });

  it("a successful Disarm knocks the weapon out of the readied ones; a failed weapon Trip drops the attacker's", () => {
    const enc = armed({ Sword: { readied: true } });
    expect(
      refused(enc, act('ana', 'disarm', { target: 'bren', targetWeapon: 'Spear', check: { successes: 1 } }))
        .message,
    ).toBe('Bren does not wield "Spear" (readied: Bow, Dagger, Axe). Name one of the weapons Bren holds.');
    const e = must(
      enc,
      act('ana', 'disarm', {
        target: 'bren',
        targetWeapon: 'Dagger',
        check: { successes: 1, success: true },
      }),
    );
    expect(e.map((x) => x.event.type)).toContain('stamina/dropped');
    expect(cs(enc, 'bren').readied).toEqual(['Bow', 'Axe']);
    nextUntil(enc, 'ana');
    must(enc, act('ana', 'trip', { target: 'bren', check: { successes: 0, success: false } }));
    expect(cs(enc, 'ana').readied).toEqual([]);
  });

  it('a load of turn requirement 2 loads the weapon when its last turn ends', () => {
    const enc = armed({
      Arbalest: { kind: 'ranged', readied: true, loadTurnRequirement: 2, loadStamina: 1 },
    });
    const e = must(enc, act('ana', 'load-weapon'));
    expect(e.find((x) => x.event.type === 'stamina/acted')!.event).toMatchObject({
      stamina: 1,
      turnRequirement: 2,
    });
    nextUntil(enc, 'ana');
    expect(cs(enc, 'ana').loaded).toEqual([]);
    expect(refused(enc, act('ana', 'loose', { target: 'bren' })).code).toBe('turn/performing');
    must(enc, { type: 'next' });
    expect(cs(enc, 'ana').loaded).toEqual(['Arbalest']);
    expect(refused(enc, act('bren', 'load-weapon')).code).toBe('weapon/not-ready');
  });
});

/** The check modifiers of the action just taken. */
function checkOf(entries: ReturnType<typeof must>): {
  penaltyDice: number;
  bonusDice: number;
  notes: string[];
} {
  return entries.find((x) => x.event.type === 'stamina/acted')!.event.check as {
    penaltyDice: number;
    bonusDice: number;
    notes: string[];
  };
}

describe("Catalog: each action's own penalty dice as its text sets them", () => {
  it('Bash: two penalty dice unless performed with a shield', () => {
    const enc = fight();
    expect(checkOf(must(enc, act('ana', 'bash', { target: 'bren' }))).penaltyDice).toBe(2);
    const enc2 = fight();
    expect(checkOf(must(enc2, act('ana', 'bash', { target: 'bren', shield: true }))).penaltyDice).toBe(0);
  });

  it('Disarm: two penalty dice against a one-handed weapon, four against a two-handed one', () => {
    const enc = fight();
    expect(checkOf(must(enc, act('ana', 'disarm', { target: 'bren' }))).penaltyDice).toBe(2);
    const enc2 = fight();
    expect(checkOf(must(enc2, act('ana', 'disarm', { target: 'bren', twoHanded: true }))).penaltyDice).toBe(
      4,
    );
  });

  it('Disarm: refused against a weapon with more than 2 + disarm rank more reach', () => {
    const longSpear = { ...duo[1]!, stats: { reach: 3 } };
    const enc = fight({}, [duo[0]!, longSpear]);
    const r = refused(enc, act('ana', 'disarm', { target: 'bren', reachChoice: 'free-strike' }));
    expect(r.code).toBe('disarm/reach');
    expect(r.message).toBe(
      "Bren's weapon has 3 more reach than Ana's; Disarm reaches a weapon at most 2 longer (2 + disarm rank). Use a weapon with more reach or another attack.",
    );
    const ranked = fight({}, [{ ...duo[0]!, stats: { ranks: { disarm: 1 } } }, longSpear]);
    must(ranked, act('ana', 'disarm', { target: 'bren', reachChoice: 'free-strike' }));
  });

  it("Distracting attack: two penalty dice, three if the opponent's reach is greater", () => {
    const enc = fight();
    expect(checkOf(must(enc, act('ana', 'distracting-attack', { target: 'bren' }))).penaltyDice).toBe(2);
    const enc2 = fight({}, [duo[0]!, { ...duo[1]!, stats: { reach: 1 } }]);
    const check = checkOf(
      must(enc2, act('ana', 'distracting-attack', { target: 'bren', reachChoice: 'free-strike' })),
    );
    expect(check.penaltyDice).toBe(3);
  });

  it('Off-hand attack: two penalty dice less the off-hand attack rank, plus the off-hand die', () => {
    const enc = fight();
    expect(checkOf(must(enc, act('ana', 'off-hand-attack', { target: 'bren' }))).penaltyDice).toBe(3);
    const enc2 = fight({}, [{ ...duo[0]!, stats: { ranks: { offHandAttack: 1 }, weapons: kit } }, duo[1]!]);
    expect(checkOf(must(enc2, act('ana', 'off-hand-attack', { target: 'bren' }))).penaltyDice).toBe(2);
    const enc3 = fight({}, [{ ...duo[0]!, stats: { ranks: { offHandAttack: 4 }, weapons: kit } }, duo[1]!]);
    expect(checkOf(must(enc3, act('ana', 'off-hand-attack', { target: 'bren' }))).penaltyDice).toBe(1);
  });

  it('Power attack: two penalty dice, none if it is the first attack after a Dash this turn', () => {
    const enc = fight();
    expect(checkOf(must(enc, act('ana', 'power-attack', { target: 'bren' }))).penaltyDice).toBe(2);
    const dashed = fight();
    must(dashed, act('ana', 'dash'));
    expect(checkOf(must(dashed, act('ana', 'power-attack', { target: 'bren' }))).penaltyDice).toBe(0);
    const notFirst = fight();
    must(notFirst, act('ana', 'dash'));
    must(notFirst, act('ana', 'quick-attack', { target: 'bren' }));
    expect(checkOf(must(notFirst, act('ana', 'power-attack', { target: 'bren' }))).penaltyDice).toBe(2);
  });

  it("Trip: two penalty dice plus the defender's balance rank; Tackle has none", () => {
    const enc = fight({}, [duo[0]!, { ...duo[1]!, stats: { ranks: { balance: 2 } } }]);
    expect(checkOf(must(enc, act('ana', 'trip', { target: 'bren' }))).penaltyDice).toBe(4);
    const enc2 = fight();
    expect(checkOf(must(enc2, act('ana', 'tackle', { target: 'bren' }))).penaltyDice).toBe(0);
  });

  it('Trip: a hit knocks the target prone; a failed body trip costs 3 defense, a critical one leaves the attacker prone', () => {
    const hit = fight();
    must(hit, act('ana', 'trip', { target: 'bren', check: { successes: 1, success: true } }));
    expect(st(hit).effects.map((e) => [e.name, e.target])).toEqual([['Prone', 'bren']]);
    const miss = fight();
    must(miss, act('ana', 'trip', { target: 'bren', body: true, check: { successes: 0, success: false } }));
    expect(cs(miss, 'ana').defense).toBe(5);
    expect(st(miss).effects).toHaveLength(0);
    const fumble = fight();
    must(
      fumble,
      act('ana', 'trip', {
        target: 'bren',
        body: true,
        check: { successes: 0, success: false, critical: true },
      }),
    );
    expect(st(fumble).effects.map((e) => [e.name, e.target])).toEqual([['Prone', 'ana']]);
  });

  it('Tackle: the attacker always ends prone, the target too on a hit', () => {
    const enc = fight();
    must(enc, act('ana', 'tackle', { target: 'bren', check: { successes: 1, success: true } }));
    expect(
      st(enc)
        .effects.map((e) => e.target)
        .sort(),
    ).toEqual(['ana', 'bren']);
  });

  it('Jump: distance +50% after a Dash or Sprint this turn, noted on the check', () => {
    const enc = fight();
    expect(checkOf(must(enc, act('ana', 'jump'))).notes).toEqual([]);
    const dashed = fight();
    must(dashed, act('ana', 'dash'));
    expect(checkOf(must(dashed, act('ana', 'jump'))).notes).toContain(
      'Jump: distance +50% (after a Dash or Sprint this turn)',
    );
  });

  it('Climb: a critical failure is noted as a fall', () => {
    const enc = fight();
    const check = checkOf(
      must(enc, act('ana', 'climb', { check: { successes: 0, success: false, critical: true } })),
    );
    expect(check.notes).toContain('critical failure: Ana loses grip and falls');
  });
});

describe('Defensive actions: Disengage and Dodge defense bonuses shown on the checks against the character', () => {
  it('Disengage: +10 defense against free attacks only, until the next turn', () => {
    const enc = fight();
    must(enc, act('ana', 'disengage', { check: { successes: 0 } }));
    const free = checkOf(must(enc, act('bren', 'free-attack', { target: 'ana' })));
    expect(free.notes).toContain("Ana's melee defense +10");
    expect(free.notes).toContain('Ana Disengage: +10 defense against free attacks');
    must(enc, { type: 'next' });
    const plain = checkOf(must(enc, act('bren', 'basic-attack', { target: 'ana' })));
    expect(plain.notes.join(' ')).not.toContain('free attacks');
  });

  it('Dodge: a situational ranged defense bonus equal to the meters moved on its turn', () => {
    const enc = fight();
    must(enc, act('ana', 'walk')); // 4 m, first move free
    must(enc, act('ana', 'dodge', { check: { successes: 0 } }));
    must(enc, { type: 'next' });
    const shot = checkOf(must(enc, act('bren', 'loose', { target: 'ana' })));
    expect(shot.notes).toContain("Ana's ranged defense +4");
    const entered = fight();
    must(entered, act('ana', 'dodge', { distance: 6, check: { successes: 0 } }));
    must(entered, { type: 'next' });
    expect(checkOf(must(entered, act('bren', 'loose', { target: 'ana' }))).notes).toContain(
      'Ana Dodge: +6 situational defense',
    );
  });
});

describe('Refusals are sentences a GM understands: why, and what would make it legal', () => {
  it('says why and what to do instead', () => {
    const enc = fight({}, [mage, duo[1]!]);
    expect(refused(enc, act('mira', 'scramble')).message).toBe(
      "Scramble is a reaction, taken outside Mira's own turn; Mira can take it during someone else's turn.",
    );
    expect(refused(enc, act('bren', 'walk')).message).toBe(
      "It is Mira's turn; Walk is taken on Bren's own turn (only reactions come between turns).",
    );
    expect(refused(enc, act('mira', 'basic-attack', { target: 'bren', reduce: true })).message).toBe(
      "Basic attack's turn requirement cannot be reduced; the text offers that only for Ready/Stow Weapon, Ready/stow weapon/ammo and Cast Cantrip.",
    );
    must(enc, act('bren', 'take-cover'));
    expect(refused(enc, act('bren', 'scramble')).message).toBe(
      'Bren already reacted (Take cover) since their last turn; one reaction between turns. Bren can react again once their next turn has begun.',
    );
    must(enc, act('mira', 'off-hand-attack', { target: 'bren' }));
    expect(refused(enc, act('mira', 'off-hand-attack', { target: 'bren' })).message).toBe(
      'Off-hand attack is limited to once per round; Mira already took it this round and can take it again next round.',
    );
    must(enc, act('mira', 'basic-attack', { target: 'bren' }));
    expect(refused(enc, act('mira', 'quick-attack', { target: 'bren' })).message).toBe(
      "Quick attack cannot be taken after an action with a turn requirement of one; Mira already took one this turn. Take it before the turn's turn-requirement-1 action, or next turn.",
    );
    must(enc, { type: 'next' });
    expect(refused(enc, act('mira', 'free-attack', { target: 'bren', as: 'off-hand-attack' })).message).toBe(
      'Off-hand attack is limited to once per round; Mira already took it this round and can take it again next round.',
    );
    const plain = fight();
    expect(refused(plain, act('ana', 'gather-arcane-energy')).message).toBe(
      'Magic actions "may only be taken by characters with an arcane trait"; Ana has none (give them the arcane trait on their sheet if they should).',
    );
  });
});

describe('Turn rules: at most one action with turn requirement ≥ 1 per turn', () => {
  it('refuses a second turn-requirement-1 action with the reason', () => {
    const enc = fight();
    must(enc, act('ana', 'basic-attack', { target: 'bren' }));
    const r = refused(enc, act('ana', 'bash', { target: 'bren' }));
    expect(r.code).toBe('turn/requirement-taken');
    expect(r.message).toContain('Ana already took Basic attack');
    must(enc, { type: 'next' });
    must(enc, act('bren', 'bash', { target: 'ana' }));
  });

  it("refuses actions outside the character's turn", () => {
    const enc = fight();
    expect(refused(enc, act('bren', 'walk')).code).toBe('turn/not-yours');
  });
});

describe('Turn rules: the first move action of a turn has its turn requirement reduced to 0', () => {
  it('a first-move-free walk then an attack', () => {
    const enc = fight();
    const e = must(enc, act('ana', 'walk'));
    const acted = e.find((x) => x.event.type === 'stamina/acted')!.event;
    expect(acted.turnRequirement).toBe(0);
    expect(acted.meters).toBe(4); // "half your base movement in meters, round down": 9 / 2
    must(enc, act('ana', 'basic-attack', { target: 'bren' }));
  });

  it('an attack then a first move (walk) is still free', () => {
    const enc = fight();
    must(enc, act('ana', 'basic-attack', { target: 'bren' }));
    must(enc, act('ana', 'dash'));
    expect(cs(enc, 'ana').stamina).toBe(4);
  });

  it('only the first: a second move keeps its requirement', () => {
    const enc = fight();
    must(enc, act('ana', 'walk'));
    must(enc, act('ana', 'dash')); // requirement 1, the turn's one
    expect(refused(enc, act('ana', 'basic-attack', { target: 'bren' })).code).toBe('turn/requirement-taken');
  });

  it('Sprint as the first move is free too (Jump counts on "a dash or sprint action already this turn")', () => {
    const enc = fight();
    const e = must(enc, act('ana', 'sprint'));
    expect(e.find((x) => x.event.type === 'stamina/acted')!.event.turnRequirement).toBe(0);
    must(enc, act('ana', 'basic-attack', { target: 'bren' }));
    const late = fight();
    must(late, act('ana', 'walk'));
    must(late, act('ana', 'sprint')); // not the first move: the turn's one turn-requirement-1 action
    expect(refused(late, act('ana', 'basic-attack', { target: 'bren' })).code).toBe('turn/requirement-taken');
  });

  it('Scramble: "move actions they make on their next turn cannot have its turn requirement reduced"', () => {
    const enc = fight();
    must(enc, act('bren', 'scramble'));
    must(enc, { type: 'next' });
    const e = must(enc, act('bren', 'walk'));
    expect(e.find((x) => x.event.type === 'stamina/acted')!.event.turnRequirement).toBe(1);
    must(enc, { type: 'next' }); // round 2, Ana
    must(enc, { type: 'next' }); // Bren: reductions work again
    const again = must(enc, act('bren', 'walk'));
    expect(again.find((x) => x.event.type === 'stamina/acted')!.event.turnRequirement).toBe(0);
  });
});

describe('Turn rules: a turn-requirement-0 action at most once per turn', () => {
  it('refuses the same turn-requirement-0 action twice in a turn', () => {
    const enc = fight({}, [
      { ...duo[0]!, stats: { stamina: 6, loadTurnRequirement: 0, weapons: unloaded } },
      duo[1]!,
    ]);
    must(enc, act('ana', 'load-weapon'));
    const r = refused(enc, act('ana', 'load-weapon'));
    expect(r.code).toBe('turn/once-per-turn');
    expect(r.message).toBe(
      "Ana already took Load weapon at turn requirement 0 this turn; it may be taken once per turn, so again on Ana's next turn.",
    );
  });

  it('a GM action flagged repeatable may be taken again', () => {
    const enc = encounter({ ruleset: 'stamina', combatants: duo }, registry);
    must(enc, {
      type: 'define-action',
      action: {
        id: 'shout',
        name: 'Shout',
        kind: 'move',
        cost: { stamina: 0, turnRequirement: 0 },
        data: { repeatable: true },
      },
    });
    must(enc, { type: 'start', initiative: { ana: 9, bren: 1 } });
    must(enc, act('ana', 'shout'));
    must(enc, act('ana', 'shout'));
  });
});

describe("Turn rules: an action with a turn requirement of 2 or 3 takes that many of the character's turns", () => {
  /** A GM ritual of turn requirement `turns` for Mira; Mira acts first. */
  function ritual(turns: number): Enc {
    const enc = encounter(
      { ruleset: 'stamina', options: { recheckInitiative: false }, combatants: [mage, duo[1]!] },
      registry,
    );
    must(enc, {
      type: 'define-action',
      action: { id: 'ritual', name: 'Ritual', kind: 'magic', cost: { stamina: 1, turnRequirement: turns } },
    });
    must(enc, { type: 'start', initiative: { mira: 9, bren: 1 } });
    must(enc, act('mira', 'ritual'));
    return enc;
  }

  it('completes as its last turn ends, across rounds, and only then', () => {
    const enc = ritual(3);
    const done = (entries: ReturnType<typeof must>) =>
      entries.some((e) => e.event.type === 'stamina/completed');
    expect(done(must(enc, { type: 'next' }))).toBe(false);
    expect(done(must(enc, { type: 'next' }))).toBe(false); // round 2: turn 2 of 3
    expect(cs(enc, 'mira').performing).toMatchObject({ taken: 2, turns: 3 });
    expect(done(must(enc, { type: 'next' }))).toBe(false);
    expect(done(must(enc, { type: 'next' }))).toBe(false); // round 3: turn 3 of 3
    expect(done(must(enc, { type: 'next' }))).toBe(true); // Mira's third turn ends
    expect(cs(enc, 'mira').performing).toBeNull();
    nextUntil(enc, 'mira');
    must(
      enc,
      act('mira', 'cast-gated-spell', { spell: { difficulty: 1, cost: 1 }, check: { successes: 1 } }),
    );
  });

  it('in a turn it takes, turn-requirement-1 actions are disabled with the reason; reduced ones stay open', () => {
    const enc = ritual(2);
    nextUntil(enc, 'mira');
    const legal = stamina.legalActions(st(enc), 'mira');
    const attack = legal.find((l) => l.action.id === 'basic-attack')!;
    expect(attack).toMatchObject({ enabled: false, code: 'turn/performing' });
    expect(attack.reason).toContain('Mira is still performing Ritual (turn 2 of 2)');
    expect(legal.find((l) => l.action.id === 'ready-stow-weapon')).toMatchObject({
      enabled: true,
      cost: { turnRequirement: 0, penaltyDice: 1 },
    });
    const quick = refused(enc, act('mira', 'quick-attack', { target: 'bren' }));
    expect(quick.code).toBe('turn/after-requirement');
    expect(quick.message).toContain("this turn of Mira's is taken by Ritual (turn 2 of 2)");
    // A quick cantrip must be the only magic action until the next turn: the ritual is one, this turn.
    expect(refused(enc, act('mira', 'cast-cantrip', { reduce: true })).code).toBe('magic/cantrip-reduced');
  });

  it('abandoning in the turn it was declared does not open a second turn-requirement action', () => {
    const enc = ritual(2);
    const e = must(enc, { type: 'abandon', actor: 'mira' });
    expect(e.map((x) => x.event.type)).toContain('stamina/stopped');
    expect(refused(enc, act('mira', 'basic-attack', { target: 'bren' })).code).toBe('turn/requirement-taken');
    must(enc, { type: 'next' });
    nextUntil(enc, 'mira');
    expect(cs(enc, 'mira').turn.requirementTaken).toBeNull();
  });

  it("abandoned between its turns, the next turn is the character's own again", () => {
    const enc = ritual(3);
    must(enc, { type: 'next' });
    const stopped = must(enc, { type: 'abandon', actor: 'mira' });
    expect(stopped.find((e) => e.event.type === 'stamina/stopped')!.event).toMatchObject({
      taken: 1,
      turns: 3,
      inTurn: false,
      freesTurn: false,
    });
    nextUntil(enc, 'mira');
    expect(cs(enc, 'mira').turn.requirementTaken).toBeNull();
    must(enc, act('mira', 'basic-attack', { target: 'bren' }));
  });

  it('a reaction between its turns does not stop it ("Reactions have no turn requirement")', () => {
    const enc = ritual(2);
    must(enc, { type: 'next' });
    must(enc, act('mira', 'scramble'));
    expect(cs(enc, 'mira').performing).toMatchObject({ taken: 1, turns: 2 });
  });

  it('a first Walk refused in a turn it takes says when a Scramble keeps it at turn requirement 1', () => {
    const enc = ritual(2);
    must(enc, { type: 'next' });
    must(enc, act('mira', 'scramble'));
    nextUntil(enc, 'mira');
    expect(refused(enc, act('mira', 'walk')).message).toBe(
      'Mira is still performing Ritual (turn 2 of 2), which takes this turn; only actions with turn requirement 0 are open. Walk keeps its turn requirement of 1 this turn: Mira scrambled, and "move actions they make on their next turn cannot have its turn requirement reduced". To take Walk instead, give up Ritual first (Abandon); what it cost stays spent.',
    );
  });
});

describe('Turn rules: Quick attack and Off-hand attack once per round; Quick attack never after a turn-requirement-1 action', () => {
  it('Quick attack is refused after a turn-requirement-1 action', () => {
    const enc = fight();
    must(enc, act('ana', 'basic-attack', { target: 'bren' }));
    expect(refused(enc, act('ana', 'quick-attack', { target: 'bren' })).code).toBe('turn/after-requirement');
  });

  it('Quick attack then a turn-requirement-1 action is allowed', () => {
    const enc = fight();
    must(enc, act('ana', 'quick-attack', { target: 'bren' }));
    must(enc, act('ana', 'basic-attack', { target: 'bren' }));
  });

  it('Off-hand attack: once per round, also as a free attack in the same round', () => {
    const enc = fight();
    must(enc, act('ana', 'off-hand-attack', { target: 'bren' }));
    must(enc, { type: 'next' });
    must(enc, act('bren', 'walk'));
    const r = refused(enc, act('ana', 'free-attack', { target: 'bren', as: 'off-hand-attack' }));
    expect(r.code).toBe('round/once-per-round');
    must(enc, act('ana', 'free-attack', { target: 'bren', as: 'basic-attack' }));
    must(enc, { type: 'next' }); // round 2: the limit is lifted
    must(enc, act('ana', 'off-hand-attack', { target: 'bren' }));
  });
});

describe("Turn rules: Ready/Stow and Cast Cantrip reductions impose a penalty die until the start of the character's next turn", () => {
  it('reduced Ready/Stow leaves the turn-requirement-1 action open and adds a penalty die to the next check', () => {
    const enc = fight();
    must(enc, act('ana', 'ready-stow-weapon', { reduce: true }));
    expect(st(enc).effects.map((e) => e.name)).toEqual(['Penalty die (Ready/Stow Weapon)']);
    const e = must(enc, act('ana', 'basic-attack', { target: 'bren' }));
    const check = e.find((x) => x.event.type === 'stamina/acted')!.event.check as { penaltyDice: number };
    expect(check.penaltyDice).toBe(1);
  });

  it("acting first: the penalty lasts through the others' turns and across the round boundary to her next turn", () => {
    const enc = fight();
    must(enc, act('ana', 'ready-stow-weapon', { reduce: true }));
    must(enc, { type: 'next' }); // Bren
    expect(st(enc).effects).toHaveLength(1);
    must(enc, { type: 'next', initiative: { ana: 9, bren: 1 } }); // round 2, Ana first again
    expect(st(enc).round).toBe(2);
    expect(st(enc).effects).toHaveLength(0);
  });

  it('acting last: the penalty survives the round boundary when the character acts last in the next round', () => {
    const enc = fight();
    must(enc, act('ana', 'ready-stow-weapon', { reduce: true }));
    must(enc, { type: 'next' }); // Bren
    must(enc, { type: 'next', initiative: { ana: 1, bren: 9 } }); // round 2: Bren first, Ana last
    expect(enc.state.current).toBe('bren');
    expect(st(enc).effects).toHaveLength(1);
    must(enc, { type: 'next' }); // Ana
    expect(st(enc).effects).toHaveLength(0);
  });

  it('"the first time it is taken in a turn": the ranged Ready/stow reduction only once a turn', () => {
    const enc = fight();
    must(enc, act('ana', 'ready-stow-ammo', { reduce: true }));
    expect(refused(enc, act('ana', 'ready-stow-ammo', { reduce: true })).code).toBe('turn/not-reducible');
    must(enc, act('ana', 'ready-stow-ammo')); // at turn requirement 1
  });

  it('a reduction the text does not offer is refused', () => {
    const enc = fight();
    expect(refused(enc, act('ana', 'basic-attack', { target: 'bren', reduce: true })).code).toBe(
      'turn/not-reducible',
    );
  });

  it("Cast Cantrip reduced: a penalty die and no other magic action until the caster's next turn", () => {
    const enc = fight({}, [mage, duo[1]!]);
    must(enc, act('mira', 'cast-cantrip', { reduce: true }));
    expect(cs(enc, 'mira').stamina).toBe(6);
    expect(refused(enc, act('mira', 'gather-arcane-energy')).code).toBe('magic/cantrip-reduced');
    must(enc, act('mira', 'dash'));
    must(enc, { type: 'next' });
    must(enc, { type: 'next' });
    must(enc, act('mira', 'gather-arcane-energy', { check: { successes: 1 } }));
    // "an additional magic action": a quick cantrip cannot follow this turn's gather either
    expect(refused(enc, act('mira', 'cast-cantrip', { reduce: true })).code).toBe('magic/cantrip-reduced');
  });
});

describe('Resources: stamina and defense tracked; an unaffordable action is refused', () => {
  it('pays stamina and refuses what cannot be paid, with the reason', () => {
    const enc = fight({}, [{ ...duo[0]!, stats: { stamina: 2 } }, duo[1]!]);
    const r = refused(enc, act('ana', 'sprint'));
    expect(r.code).toBe('stamina/insufficient');
    expect(r.message).toBe(
      'Sprint costs 3 stamina; Ana has 2. Regain stamina (Restoration action) or allow negative resources.',
    );
    must(enc, act('ana', 'dash'));
    expect(cs(enc, 'ana').stamina).toBe(1);
  });

  it('the GM option allowNegative lets stamina go below zero', () => {
    const enc = fight({ allowNegative: true }, [{ ...duo[0]!, stats: { stamina: 2 } }, duo[1]!]);
    must(enc, act('ana', 'sprint'));
    expect(cs(enc, 'ana').stamina).toBe(-1);
  });

  it('Reckless attack costs defense: twice the bonus dice less the rank, minimum one', () => {
    expect(recklessDefense(3, 0)).toBe(6);
    expect(recklessDefense(1, 2)).toBe(1);
    const enc = fight();
    must(enc, act('ana', 'reckless-attack', { target: 'bren', bonusDice: 2 }));
    expect(cs(enc, 'ana').defense).toBe(4);
    const enc2 = fight();
    expect(refused(enc2, act('ana', 'reckless-attack', { target: 'bren', bonusDice: 4 })).code).toBe(
      'reckless/bonus-dice',
    );
    must(enc2, { type: 'adjust', combatant: 'ana', defense: -7 });
    expect(refused(enc2, act('ana', 'reckless-attack', { target: 'bren', bonusDice: 1 })).code).toBe(
      'defense/insufficient',
    );
  });
});

describe('Every action says what it takes; a missing one is refused by the name the form gives it', () => {
  const legal = (enc: Enc, actor: string, action: string) =>
    legalActions(enc.state, actor, registry).find((l) => l.action.id === action)!;

  it('Reckless attack asks for its bonus dice, a target and a weapon from the sheet', () => {
    const enc = fight({}, [{ ...duo[0]!, stats: { weapons: kit } }, duo[1]!]);
    const params = legal(enc, 'ana', 'reckless-attack').params!;
    const by = (name: string) => params.find((p) => p.name === name)!;
    expect(by('bonusDice')).toMatchObject({ label: 'Bonus dice', required: true, type: 'integer' });
    expect(by('target')).toMatchObject({ label: 'Target', required: true, type: 'combatant' });
    expect(by('target').options?.map((o) => o.value)).toEqual(['bren']);
    expect(by('weapon').options?.map((o) => o.value)).toEqual(['Bow', 'Dagger', 'Axe']);
    expect(by('reachChoice').options?.map((o) => o.label)).toEqual([
      'Take the penalty dice',
      'Grant a free strike',
    ]);
    const r = refused(enc, act('ana', 'reckless-attack', { target: 'bren' }));
    expect(r.message).toBe('Reckless attack needs its bonus dice: enter the Bonus dice, between 1 and 3.');
  });

  it('Aim names whom it aims at; a spell asks for its difficulty and cost; a free attack what it is made as', () => {
    const enc = fight({}, [mage, duo[1]!]);
    expect(refused(enc, act('mira', 'aim')).message).toBe(
      'Aim needs a target: choose whom Mira acts against (Aim at).',
    );
    expect(legal(enc, 'mira', 'cast-gated-spell').params?.map((p) => [p.name, p.required])).toEqual([
      ['spell', true],
      ['check', false],
    ]);
    expect(refused(enc, act('mira', 'cast-gated-spell')).message).toBe(
      'Cast gated spell needs the spell: enter its Difficulty and Cost.',
    );
    const free = legal(enc, 'bren', 'free-attack').params!.find((p) => p.name === 'as')!;
    expect(free.options?.find((o) => o.value === 'off-hand-attack')?.label).toBe('Off-hand attack');
    const r = refused(enc, act('bren', 'free-attack', { target: 'mira', as: 'dash' }));
    expect(r.message).toBe(
      'A free attack is made as a Basic attack, Off-hand attack, Loose/shoot/fire, Throw Weapon or Throw Spell; choose one of them under "Made as".',
    );
  });
});

describe('Resources: regaining defense and stamina through the defensive and restoration checks', () => {
  it('Restoration: stamina from the check (GM enters it), defense = personal defense + regain composure ranks', () => {
    const enc = fight({}, [mage, duo[1]!]);
    must(enc, { type: 'adjust', combatant: 'mira', stamina: -5, defense: -6 });
    must(enc, act('mira', 'restoration', { check: { successes: 2 } }));
    expect([cs(enc, 'mira').stamina, cs(enc, 'mira').defense]).toEqual([5, 7]);
  });

  it("the GM's adjust stops at zero unless the GM allows negative resources", () => {
    const enc = fight();
    must(enc, { type: 'adjust', combatant: 'ana', stamina: -999, defense: -999 });
    expect([cs(enc, 'ana').stamina, cs(enc, 'ana').defense]).toEqual([0, 0]);
    const open = fight({ allowNegative: true });
    const before = cs(open, 'ana').defense;
    must(open, { type: 'adjust', combatant: 'ana', defense: -999 });
    expect(cs(open, 'ana').defense).toBe(before - 999);
  });

  it("regaining never exceeds the sheet's maximum", () => {
    const enc = fight();
    must(enc, { type: 'adjust', combatant: 'ana', defense: -1 });
    must(enc, act('ana', 'defensive-stance', { check: { successes: 3 } }));
    expect(cs(enc, 'ana').defense).toBe(8);
  });

  it('the engine rolls the check with the successDice option when the GM enters none', () => {
    const enc = fight({ successDice: '1d1+2' });
    must(enc, { type: 'adjust', combatant: 'ana', defense: -5 });
    const e = must(enc, act('ana', 'dodge'));
    expect(e.some((x) => x.event.type === 'dice/rolled' && x.event.purpose === 'regain composure')).toBe(
      true,
    );
    expect(cs(enc, 'ana').defense).toBe(6);
  });

  it('Flat Footed: "starts combat having lost defense equal to their reflexes stat"', () => {
    const enc = encounter({ ruleset: 'stamina', combatants: duo }, registry);
    must(enc, { type: 'start', initiative: { ana: 1, bren: 2 }, flatFooted: ['ana'] });
    expect(cs(enc, 'ana').defense).toBe(5);
  });
});

describe("Defensive actions forbid attacking, free attacks included, until the character's next turn", () => {
  it('a defensive stance blocks a later free attack; the block ends at the start of the next turn', () => {
    const enc = fight();
    must(enc, act('ana', 'defensive-stance', { check: { successes: 0 } }));
    expect(refused(enc, act('ana', 'quick-attack', { target: 'bren' })).code).toBe('attack/after-defensive');
    must(enc, { type: 'next' });
    const r = refused(enc, act('ana', 'free-attack', { target: 'bren' }));
    expect(r.code).toBe('attack/after-defensive');
    expect(r.message).toContain('Defensive Stance');
    must(enc, act('ana', 'scramble')); // not an attack: the reaction is still open
    must(enc, { type: 'next', initiative: { ana: 1, bren: 9 } }); // round 2: Bren first
    expect(refused(enc, act('ana', 'free-attack', { target: 'bren' })).code).toBe('reaction/used');
    must(enc, { type: 'next' }); // Ana's turn: the defensive action ends
    must(enc, act('ana', 'basic-attack', { target: 'bren' }));
  });

  it('Restoration is a defensive action too', () => {
    const enc = fight();
    must(enc, act('ana', 'restoration', { check: { successes: 0 } }));
    must(enc, { type: 'next' });
    expect(refused(enc, act('ana', 'free-attack', { target: 'bren' })).code).toBe('attack/after-defensive');
  });
});

describe("Reactions: one between each of the character's turns, no turn requirement", () => {
  it('refuses a reaction on the own turn and a second one before the next turn', () => {
    const enc = fight();
    expect(refused(enc, act('ana', 'scramble')).code).toBe('reaction/own-turn');
    must(enc, act('bren', 'free-attack', { target: 'ana' }));
    expect(refused(enc, act('bren', 'take-cover')).code).toBe('reaction/used');
    must(enc, { type: 'next' }); // Bren's turn refreshes the reaction
    must(enc, { type: 'next', initiative: { ana: 9, bren: 1 } });
    must(enc, act('bren', 'take-cover', { cover: 3 }));
  });

  it("a reaction does not use the character's turn requirement", () => {
    const enc = fight();
    must(enc, act('bren', 'free-attack', { target: 'ana' }));
    must(enc, { type: 'next' });
    must(enc, act('bren', 'basic-attack', { target: 'ana' }));
  });
});

describe('Magic: gather only as many turns in a row as the arcane aptitude rank; dues on release and loss', () => {
  it('needs an arcane trait', () => {
    const enc = fight();
    expect(refused(enc, act('ana', 'cast-cantrip')).code).toBe('magic/no-arcane-trait');
  });

  it('gather needs an arcane aptitude rank: rank 0 allows no turn of gathering', () => {
    const enc = fight({}, [{ ...mage, stats: { arcane: true } }, duo[1]!]);
    expect(refused(enc, act('mira', 'gather-arcane-energy')).message).toBe(
      'Mira has no rank in arcane aptitude, and gathering is allowed "a number of turns in a row equal to" that rank. Give Mira a rank in arcane aptitude on their sheet to gather.',
    );
  });

  it('gathers two turns in a row (rank 2), refuses a third, then releases with dues = stored + actions', () => {
    const enc = fight({}, [mage, duo[1]!]);
    must(enc, act('mira', 'gather-arcane-energy', { check: { successes: 2 } }));
    nextUntil(enc, 'mira');
    must(enc, act('mira', 'gather-arcane-energy', { check: { successes: 1 } }));
    nextUntil(enc, 'mira');
    expect(refused(enc, act('mira', 'gather-arcane-energy')).message).toBe(
      'Mira has gathered 2 turns in a row; arcane aptitude rank 2 allows no more in a row. Shape or release the energy now, or gather again after a turn without gathering.',
    );
    must(enc, act('mira', 'shape-arcane-energy', { check: { successes: 2 } }));
    expect(cs(enc, 'mira').arcane).toMatchObject({ stored: 3, shaped: 2, actions: 3 });
    nextUntil(enc, 'mira');
    must(enc, act('mira', 'release-crafted-effect'));
    expect(cs(enc, 'mira').arcane).toMatchObject({ stored: 0, shaped: 0, actions: 0, dues: 6 });
  });

  it('a turn-requirement-1 action other than gather/shape loses the store with dues; a free first move does not', () => {
    const enc = fight({}, [mage, duo[1]!]);
    must(enc, act('mira', 'gather-arcane-energy', { check: { successes: 2 } }));
    nextUntil(enc, 'mira');
    must(enc, act('mira', 'walk')); // turn requirement reduced to 0
    expect(cs(enc, 'mira').arcane.stored).toBe(2);
    const e = must(enc, act('mira', 'basic-attack', { target: 'bren' }));
    expect(e.some((x) => x.event.type === 'stamina/arcane' && x.event.change === 'lost')).toBe(true);
    expect(cs(enc, 'mira').arcane).toMatchObject({ stored: 0, dues: 3 });
  });

  it("cast gated: dues = the spell's cost on a success, the successes rolled on a failure", () => {
    const enc = fight({}, [mage, duo[1]!]);
    must(
      enc,
      act('mira', 'cast-gated-spell', { spell: { difficulty: 2, cost: 4 }, check: { successes: 2 } }),
    );
    expect(cs(enc, 'mira').arcane.dues).toBe(4);
    nextUntil(enc, 'mira');
    must(
      enc,
      act('mira', 'cast-ungated-spell', { spell: { difficulty: 2, cost: 1 }, check: { successes: 2 } }),
    );
    expect(cs(enc, 'mira').arcane.dues).toBe(6); // failed: 1 + 2 needed, 2 rolled
    nextUntil(enc, 'mira');
    must(
      enc,
      act('mira', 'cast-ungated-spell', { spell: { difficulty: 2, cost: 1 }, check: { successes: 4 } }),
    );
    expect(cs(enc, 'mira').arcane.dues).toBe(11); // 4 successes + cost modifier 1
  });
});

describe("Combat modifiers as conditions, with the text's numbers, shown on the checks they affect", () => {
  it('cover: greatest source plus one per extra source, at +9 the target cannot be attacked', () => {
    expect(coverBonus([3])).toBe(3);
    expect(coverBonus([3, 5, 1])).toBe(7);
    expect(coverBonus([8, 4, 2])).toBe(9);
    const enc = fight();
    must(enc, { type: 'condition', target: 'bren', condition: 'cover', value: 8 });
    must(enc, { type: 'condition', target: 'bren', condition: 'cover', value: 2 });
    expect(refused(enc, act('ana', 'loose', { target: 'bren' })).code).toBe('target/fully-covered');
  });

  it('kneeling/prone change defenses and movement; prone triples', () => {
    const enc = fight();
    must(enc, { type: 'condition', target: 'bren', condition: 'prone' });
    must(enc, { type: 'condition', target: 'ana', condition: 'kneeling' });
    const e = must(enc, act('ana', 'walk'));
    expect(e.find((x) => x.event.type === 'stamina/acted')!.event.meters).toBe(1); // 4 − 3
    const hit = must(enc, act('ana', 'basic-attack', { target: 'bren' }));
    const notes = (hit.find((x) => x.event.type === 'stamina/acted')!.event.check as { notes: string[] })
      .notes;
    expect(notes).toContain("Bren's melee defense −9");
  });

  it('concealed: a defense bonus by how complete the concealment is (the largest source counts)', () => {
    const enc = fight();
    must(enc, { type: 'condition', target: 'bren', condition: 'concealed', value: 2 });
    must(enc, { type: 'condition', target: 'bren', condition: 'concealed', value: 4 });
    const notes = checkOf(must(enc, act('ana', 'loose', { target: 'bren' }))).notes;
    expect(notes).toEqual(["Bren's ranged defense +4", 'Bren concealed +4']);
  });

  it('surprised: no melee or ranged defense bonuses, shown on attacks against the character', () => {
    const enc = fight();
    must(enc, { type: 'condition', target: 'bren', condition: 'surprised' });
    const notes = checkOf(must(enc, act('ana', 'basic-attack', { target: 'bren' }))).notes;
    expect(notes).toContain('Bren surprised: no melee or ranged defense bonuses (parry, block)');
  });

  it('flat footed never takes defense below zero unless negative resources are allowed', () => {
    const slow = [{ ...duo[0]!, stats: { defense: 2, reflexes: 5 } }, duo[1]!];
    const enc = encounter({ ruleset: 'stamina', combatants: slow }, registry);
    must(enc, { type: 'start', initiative: { ana: 1, bren: 2 }, flatFooted: ['ana'] });
    expect(cs(enc, 'ana').defense).toBe(0);
    const neg = encounter(
      { ruleset: 'stamina', options: { allowNegative: true }, combatants: slow },
      registry,
    );
    must(neg, { type: 'start', initiative: { ana: 1, bren: 2 }, flatFooted: ['ana'] });
    expect(cs(neg, 'ana').defense).toBe(-3);
  });

  it('flanking: −1 melee defense per contributing opponent; wind: penalty dice on ranged attacks, not on spells', () => {
    const enc = fight({ wind: 3 });
    must(enc, { type: 'condition', target: 'bren', condition: 'flanked', value: 2 });
    const shot = must(enc, act('ana', 'loose', { target: 'bren' }));
    const check = shot.find((x) => x.event.type === 'stamina/acted')!.event.check as { penaltyDice: number };
    expect(check.penaltyDice).toBe(3);
    must(enc, { type: 'next' });
    // "heavier or smaller projectiles should receive lesser penalties": the GM sets this shot's wind
    expect(checkOf(must(enc, act('bren', 'loose', { target: 'ana', wind: 1 }))).penaltyDice).toBe(1);
    must(enc, { type: 'next', initiative: { ana: 9, bren: 1 } });
    const swing = must(enc, act('ana', 'quick-attack', { target: 'bren' }));
    const notes = (swing.find((x) => x.event.type === 'stamina/acted')!.event.check as { notes: string[] })
      .notes;
    expect(notes).toContain("Bren's melee defense −2");
  });

  it("reach: one penalty die plus one per five points, the first time only, until the target's defensive action", () => {
    const enc = fight({}, [duo[0]!, { ...duo[1]!, stats: { reach: 6 } }]);
    const first = must(enc, act('ana', 'quick-attack', { target: 'bren' }));
    expect(
      (first.find((x) => x.event.type === 'stamina/acted')!.event.check as { penaltyDice: number })
        .penaltyDice,
    ).toBe(2);
    const second = must(enc, act('ana', 'basic-attack', { target: 'bren' }));
    expect(
      (second.find((x) => x.event.type === 'stamina/acted')!.event.check as { penaltyDice: number })
        .penaltyDice,
    ).toBe(0);
    must(enc, { type: 'next' });
    must(enc, act('bren', 'disengage', { check: { successes: 0 } }));
    expect(cs(enc, 'ana').reachPaid).toEqual([]);
    // "… or grant your opponent a free strike against you": no penalty dice, the free strike is noted
    nextUntil(enc, 'ana', { ana: 9, bren: 1 });
    const strike = checkOf(
      must(enc, act('ana', 'basic-attack', { target: 'bren', reachChoice: 'free-strike' })),
    );
    expect(strike.penaltyDice).toBe(0);
    expect(strike.notes).toContain('Bren is granted a free strike (reach)');
    expect(cs(enc, 'ana').reachPaid).toEqual(['bren']);
  });

  it('Aim: bonus dice on ranged attacks against the target', () => {
    const enc = fight({}, [{ ...duo[0]!, stats: { ranks: { aim: 1 }, weapons: kit } }, duo[1]!]);
    must(enc, act('ana', 'aim', { target: 'bren' }));
    nextUntil(enc, 'ana', { ana: 9, bren: 1 });
    const shot = must(enc, act('ana', 'loose', { target: 'bren' }));
    expect(
      (shot.find((x) => x.event.type === 'stamina/acted')!.event.check as { bonusDice: number }).bonusDice,
    ).toBe(2);
  });
});

describe('Durations "until the end of the character\'s next turn" expire exactly then', () => {
  it("Aim, acting first: lasts through the next round's turn and ends at its end", () => {
    const enc = fight();
    must(enc, act('ana', 'aim', { target: 'bren' }));
    must(enc, { type: 'next' }); // Bren
    must(enc, { type: 'next', initiative: { ana: 9, bren: 1 } }); // round 2: Ana first
    expect(st(enc).effects.map((e) => e.name)).toEqual(['Aim at Bren']);
    must(enc, { type: 'next' }); // Ana's turn ends
    expect(st(enc).effects).toHaveLength(0);
  });

  it('Aim, acting last then first: ends at the end of the next turn, early in round 2', () => {
    const enc = fight({}, [duo[1]!, duo[0]!]); // Bren first, Ana last
    expect(enc.state.current).toBe('bren');
    must(enc, { type: 'next' });
    must(enc, act('ana', 'aim', { target: 'bren' }));
    must(enc, { type: 'next', initiative: { ana: 9, bren: 1 } }); // round 2: Ana first
    expect(st(enc).effects).toHaveLength(1);
    must(enc, { type: 'next' });
    expect(enc.state.current).toBe('bren');
    expect(st(enc).effects).toHaveLength(0);
  });

  it("Aim, acting last in both rounds: lasts through the others' turns of round 2 and ends at the end of hers", () => {
    const enc = fight({}, [duo[1]!, duo[0]!]); // Bren first, Ana last
    must(enc, { type: 'next' });
    must(enc, act('ana', 'aim', { target: 'bren' }));
    must(enc, { type: 'next' }); // round 2: Bren first again
    expect(enc.state.current).toBe('bren');
    expect(st(enc).effects.map((e) => e.name)).toEqual(['Aim at Bren']);
    must(enc, { type: 'next' }); // Ana's turn: still aimed
    expect(st(enc).effects).toHaveLength(1);
    must(enc, { type: 'next' }); // her turn ends: round 3
    expect(st(enc).round).toBe(3);
    expect(st(enc).effects).toHaveLength(0);
  });

  it("Scramble taken after the own turn binds the next round's turn and ends at its end", () => {
    const enc = fight(); // Ana first, Bren second
    must(enc, { type: 'next' });
    must(enc, act('ana', 'scramble')); // during Bren's turn, after Ana's
    must(enc, { type: 'next' }); // round 2: Ana
    const e = must(enc, act('ana', 'walk'));
    expect(e.find((x) => x.event.type === 'stamina/acted')!.event.turnRequirement).toBe(1);
    must(enc, { type: 'next' }); // Ana's turn ends, and the Scramble with it
    expect(st(enc).effects).toHaveLength(0);
  });

  it('Lunge\'s lost parry lasts "until the beginning of their next turn", also when acting last', () => {
    const enc = fight({}, [duo[1]!, duo[0]!]);
    must(enc, { type: 'next' });
    must(enc, act('ana', 'lunge', { target: 'bren' }));
    must(enc, { type: 'next', initiative: { ana: 1, bren: 9 } }); // round 2: Bren first, Ana last
    expect(st(enc).effects.map((e) => e.name)).toEqual(['No parry (Lunge)']);
    must(enc, { type: 'next' });
    expect(st(enc).effects).toHaveLength(0);
  });
});

describe('legalActions: every action with its reason and cost; timeline in turn order', () => {
  it('lists every catalog action, reasons for the disabled, costs after reductions', () => {
    const enc = fight();
    must(enc, act('ana', 'basic-attack', { target: 'bren' }));
    const legal = stamina.legalActions(st(enc), 'ana');
    expect(legal).toHaveLength(STAMINA_CATALOG.length);
    const bash = legal.find((l) => l.action.id === 'bash')!;
    expect(bash.enabled).toBe(false);
    expect(bash.reason).toContain('only one action with a turn requirement of one or more per turn');
    const walk = legal.find((l) => l.action.id === 'walk')!;
    expect(walk).toMatchObject({ enabled: true, cost: { stamina: 0, turnRequirement: 0 } });
    const ready = legal.find((l) => l.action.id === 'ready-stow-weapon')!;
    expect(ready).toMatchObject({ enabled: true, cost: { turnRequirement: 0, penaltyDice: 1 } });
    expect(legal.find((l) => l.action.id === 'scramble')!.code).toBe('reaction/own-turn');
    expect(stamina.legalActions(st(enc), 'bren').find((l) => l.action.id === 'scramble')!.enabled).toBe(true);
  });

  it('the timeline shows the round in turn order with stamina and defense spent', () => {
    const enc = fight();
    must(enc, act('ana', 'dash'));
    must(enc, act('ana', 'reckless-attack', { target: 'bren', bonusDice: 1 }));
    must(enc, act('bren', 'free-attack', { target: 'ana' }));
    const t = stamina.timeline(st(enc));
    expect(t.lanes.map((l) => l.id)).toEqual(['ana', 'bren']);
    expect(t.lanes[0]!.spans[0]!.label).toBe(
      'Dash (1 st), Reckless attack (2 st, 2 def) = 3 stamina, 2 defense',
    );
    expect(t.lanes[1]!.markers[0]).toMatchObject({ at: 1, kind: 'reaction' });
    expect(renderTimelineAscii(t)).toContain('Ana 3st/6def');
  });
});

describe("Views: hidden combatants' actions never reach non-GM viewers", () => {
  it('redacts state and events', () => {
    const enc = encounter(
      { ruleset: 'stamina', combatants: [...duo, { id: 'spy', name: 'Spy', hidden: true, stats: {} }] },
      registry,
    );
    must(enc, { type: 'start', initiative: { ana: 9, bren: 5, spy: 1 } });
    must(enc, act('spy', 'scramble'));
    const table = view(enc.state, { role: 'table' }, registry.stamina!);
    expect(JSON.stringify(table)).not.toContain('spy');
    const log = viewLog(enc.entries, { role: 'table' }, enc.state, registry.stamina!);
    expect(JSON.stringify(log)).not.toContain('spy');
    expect(st(enc).rs.spent).toHaveLength(1);
  });
});

describe('Custom actions: GM-defined actions follow the same turn rules from their data', () => {
  it('refuses a custom action of an unknown kind and applies firstMoveFree from data', () => {
    const enc = encounter({ ruleset: 'stamina', combatants: duo }, registry);
    const r = enc.execute({ type: 'define-action', action: { id: 'x', name: 'X', kind: 'weird' } });
    expect(isRejection(r) && r.code).toBe('action/kind');
    must(enc, {
      type: 'define-action',
      action: {
        id: 'leap',
        name: 'Leap',
        kind: 'move',
        cost: { stamina: 1, turnRequirement: 1 },
        data: { firstMoveFree: true },
      },
    });
    must(enc, { type: 'start', initiative: { ana: 9, bren: 1 } });
    must(enc, act('ana', 'leap'));
    must(enc, act('ana', 'basic-attack', { target: 'bren' }));
  });
});

describe('Properties: any command sequence keeps the invariants', () => {
  const ids = ['ana', 'bren', 'mira'];
  const actions = STAMINA_CATALOG.map((a) => a.id);
  const command = fc.oneof(
    { weight: 2, arbitrary: fc.constant({ type: 'next' }) },
    {
      weight: 6,
      arbitrary: fc.record({
        type: fc.constant('act'),
        actor: fc.constantFrom(...ids),
        action: fc.constantFrom(...actions),
        target: fc.constantFrom(...ids),
        reduce: fc.boolean(),
        bonusDice: fc.integer({ min: 1, max: 3 }),
        spell: fc.constant({ difficulty: 1, cost: 1 }),
        load: fc.record({ stamina: fc.constant(0), turnRequirement: fc.integer({ min: 0, max: 3 }) }),
        weapon: fc.constantFrom('Bow', 'Dagger', 'Axe'),
        stow: fc.boolean(),
        check: fc.record({ successes: fc.integer({ min: 0, max: 2 }), success: fc.boolean() }),
      }),
    },
    { weight: 1, arbitrary: fc.record({ type: fc.constant('abandon'), actor: fc.constantFrom(...ids) }) },
    { weight: 1, arbitrary: fc.record({ type: fc.constant('defeat'), combatant: fc.constantFrom(...ids) }) },
    {
      weight: 1,
      arbitrary: fc.record({
        type: fc.constant('condition'),
        target: fc.constantFrom(...ids),
        condition: fc.constantFrom('prone', 'cover', 'flanked'),
        value: fc.integer({ min: 1, max: 9 }),
      }),
    },
    { weight: 1, arbitrary: fc.constant({ type: 'undo' }) },
  );
  it('fold(log) = live state, plain JSON, no mutation, never throws', () => {
    fc.assert(
      fc.property(fc.array(command, { maxLength: 25 }), fc.integer({ min: 1, max: 1000 }), (cmds, seed) => {
        const enc = encounter({ ruleset: 'stamina', combatants: [...duo, mage], seed }, registry);
        must(enc, { type: 'start' });
        const results = runFrozen(enc, cmds);
        for (const r of results) if (isRejection(r)) expect(r.code).not.toBe('engine/internal');
        checkInvariants(enc);
        for (const c of Object.values(st(enc).combatants)) {
          expect(c.cs.stamina).toBeGreaterThanOrEqual(0);
          expect(c.cs.defense).toBeGreaterThanOrEqual(0);
          // An action under way has taken at least one and at most all of its turns; loaded weapons are readied
          // or were when loaded, and every weapon named is on the sheet.
          if (c.cs.performing) {
            expect(c.cs.performing.taken).toBeGreaterThanOrEqual(1);
            expect(c.cs.performing.taken).toBeLessThanOrEqual(c.cs.performing.turns);
            expect(c.active).toBe(true);
          }
          for (const w of [...c.cs.readied, ...c.cs.loaded])
            expect(Object.keys(c.stats.weapons)).toContain(w);
        }
      }),
      { numRuns: 100 },
    );
  });
});

describe('Redaction: an Aim at a hidden combatant, and a reaction during its turn, do not name it', () => {
  it('the table and other players see a plain Aim and a reaction without whose turn it was', () => {
    const spy = { id: 'spy', name: 'Spy', side: 'npc', hidden: true, stats: { stamina: 6, defense: 8 } };
    const enc = fight({}, [...duo, spy]);
    must(enc, act('ana', 'aim', { target: 'spy' }));
    nextUntil(enc, 'spy');
    must(enc, act('bren', 'take-cover', { cover: 2 }));
    expect(JSON.stringify(view(enc.state, { role: 'gm' }, stamina as never))).toContain('Aim at Spy');
    for (const viewer of [{ role: 'table' as const }, { role: 'player' as const, combatants: ['ana'] }]) {
      const seen = JSON.stringify(view(enc.state, viewer, stamina as never));
      const log = JSON.stringify(viewLog(enc.entries, viewer, enc.state, stamina as never));
      for (const text of [seen, log]) {
        expect(text).not.toContain('spy');
        expect(text).not.toContain('Spy');
      }
      expect(seen).toContain('"name":"Aim"');
      expect(log).toContain('take-cover');
    }
  });

  it("an Aim at a hidden combatant that runs out reads as a plain Aim's end", () => {
    const spy = { id: 'spy', name: 'Spy', side: 'npc', hidden: true, stats: { stamina: 6, defense: 8 } };
    const enc = fight({}, [...duo, spy]);
    must(enc, act('ana', 'aim', { target: 'spy' }));
    for (let i = 0; i < 8 && st(enc).effects.length > 0; i++) must(enc, { type: 'next' });
    const expired = enc.entries.find((e) => e.event.type === 'effect/expired');
    expect(expired?.event.name).toBe('Aim at Spy');
    const log = JSON.stringify(viewLog(enc.entries, { role: 'table' }, enc.state, stamina as never));
    expect(log).toContain('"type":"effect/expired","effect":');
    expect(log).not.toContain('Spy');
  });
});

describe('Move actions: Dash and Scramble move up to the base movement; Jump gains after a Sprint', () => {
  it('Dash: "Move up to your base movement in meters"; Scramble moves as far, as a reaction', () => {
    const enc = fight();
    const dash = must(enc, act('ana', 'dash')).find((x) => x.event.type === 'stamina/acted')!.event;
    expect(dash.meters).toBe(9);
    const scramble = must(enc, act('bren', 'scramble')).find((x) => x.event.type === 'stamina/acted')!.event;
    expect([scramble.meters, cs(enc, 'bren').stamina]).toEqual([6, 4]);
  });

  it('Jump: distance +50% "if you\'ve taken a dash or sprint action already this turn" — after a Sprint', () => {
    const enc = fight();
    must(enc, act('ana', 'sprint'));
    expect(checkOf(must(enc, act('ana', 'jump'))).notes).toContain(
      'Jump: distance +50% (after a Dash or Sprint this turn)',
    );
  });
});

describe('Melee actions: Flurry of blows and Lunge penalty dice; lost parry bonuses', () => {
  it('Flurry of blows: two penalty dice added to the skill check', () => {
    const enc = fight();
    const check = checkOf(must(enc, act('ana', 'flurry-of-blows', { target: 'bren' })));
    expect(check.penaltyDice).toBe(2);
    expect(check.notes).toContain('Flurry of blows: 2 penalty dice');
  });

  it('Lunge: two penalty dice and no parry until the next turn, unless the weapon has the Thrust keyword', () => {
    const enc = fight();
    expect(checkOf(must(enc, act('ana', 'lunge', { target: 'bren' }))).penaltyDice).toBe(2);
    expect(st(enc).effects.map((e) => [e.name, e.target])).toEqual([['No parry (Lunge)', 'ana']]);
    const thrust = fight();
    must(thrust, act('ana', 'lunge', { target: 'bren', thrust: true }));
    expect(st(thrust).effects).toHaveLength(0);
  });

  it('Off-hand attack: "loses the weapon\'s parry bonus until the beginning of the character\'s next turn"', () => {
    const enc = fight();
    must(enc, act('ana', 'off-hand-attack', { target: 'bren' }));
    expect(st(enc).effects.map((e) => e.name)).toEqual(['No parry (Off-hand attack)']);
    must(enc, { type: 'next' });
    expect(checkOf(must(enc, act('bren', 'basic-attack', { target: 'ana' }))).notes).toContain(
      'Ana No parry (Off-hand attack): no parry bonus from Dagger',
    );
    must(enc, { type: 'next' }); // round 2: Ana's turn begins
    expect(st(enc).effects).toHaveLength(0);
  });

  it('Quick attack: "Limit once per round" — refused again this round, open again next round', () => {
    const enc = fight();
    must(enc, act('ana', 'quick-attack', { target: 'bren' }));
    expect(cs(enc, 'ana').roundTaken).toEqual(['quick-attack']);
    const r = refused(enc, act('ana', 'quick-attack', { target: 'bren' }));
    expect(r.code).toBe('round/once-per-round');
    expect(r.message).toBe(
      'Quick attack is limited to once per round; Ana already took it this round and can take it again next round.',
    );
    nextUntil(enc, 'ana');
    expect(st(enc).round).toBe(2);
    must(enc, act('ana', 'quick-attack', { target: 'bren' }));
  });

  it('Distracting attack: on a hit the target loses 1 + the distracting attack rank in defense', () => {
    const enc = fight({}, [{ ...duo[0]!, stats: { ranks: { distractingAttack: 2 } } }, duo[1]!]);
    must(enc, act('ana', 'distracting-attack', { target: 'bren', check: { successes: 1, success: true } }));
    expect(cs(enc, 'bren').defense).toBe(5);
    const miss = fight();
    must(miss, act('ana', 'distracting-attack', { target: 'bren', check: { successes: 0, success: false } }));
    expect(cs(miss, 'bren').defense).toBe(8);
  });

  it('Trip: "If the attack was made with a weapon and failed the weapon is dropped by the target\'s feet"', () => {
    const enc = fight();
    const check = checkOf(
      must(enc, act('ana', 'trip', { target: 'bren', check: { successes: 0, success: false } })),
    );
    expect(check.notes).toContain("failed weapon trip: Ana's weapon is dropped at Bren's feet");
    expect(cs(enc, 'ana').defense).toBe(8); // the 3 defense are lost only with the body
  });
});

describe('Wind: "massless ranged magical effects do not suffer ranged penalties from wind"', () => {
  it('Throw Spell takes no wind penalty dice, also as a free attack; Loose/shoot/fire does', () => {
    const enc = fight({ wind: 4 });
    expect(checkOf(must(enc, act('ana', 'throw-spell', { target: 'bren' }))).penaltyDice).toBe(0);
    const free = checkOf(must(enc, act('bren', 'free-attack', { target: 'ana', as: 'throw-spell' })));
    expect(free.penaltyDice).toBe(0);
    expect(free.notes.join(' ')).not.toContain('wind');
    const shot = fight({ wind: 4 });
    expect(checkOf(must(shot, act('ana', 'loose', { target: 'bren' }))).penaltyDice).toBe(4);
  });
});

describe('Defensive Stance: "double their melee defense bonus … until their next turn", shown on melee attacks', () => {
  it("parry counts while the weapon is readied; an Off-hand attack loses only the off-hand weapon's parry", () => {
    const parrying = {
      Sword: { readied: true, parry: 2 },
      Dagger: { offHand: true, readied: true, parry: 1 },
      Buckler: { readied: true, block: 9 },
    };
    const enc = fight({}, [{ ...duo[0]!, stats: { weapons: parrying } }, duo[1]!]);
    must(enc, act('ana', 'off-hand-attack', { target: 'bren' }));
    must(enc, { type: 'next' });
    // A block of 9 is complete cover: "can not be attacked" — until the shield is down or Ana is surprised.
    expect(refused(enc, act('bren', 'basic-attack', { target: 'ana' })).code).toBe('target/fully-covered');
    must(enc, { type: 'condition', target: 'ana', condition: 'surprised' });
    expect(checkOf(must(enc, act('bren', 'basic-attack', { target: 'ana' }))).notes[0]).toBe(
      'Ana surprised: no melee or ranged defense bonuses (parry, block)',
    );
    const shield = fight({}, [
      { ...duo[0]!, stats: { weapons: { ...parrying, Buckler: { block: 9 } } } },
      duo[1]!,
    ]);
    must(shield, act('ana', 'off-hand-attack', { target: 'bren' }));
    must(shield, { type: 'next' });
    expect(checkOf(must(shield, act('bren', 'basic-attack', { target: 'ana' }))).notes).toEqual([
      "Ana's melee defense +2",
      'Ana parry +2 (Sword)',
      'Ana No parry (Off-hand attack): no parry bonus from Dagger',
    ]);
  });

  it('doubles the melee defense bonus on melee attacks against the character until their next turn', () => {
    const enc = fight({}, [{ ...duo[0]!, stats: { meleeDefenseBonus: 2, rangedDefenseBonus: 1 } }, duo[1]!]);
    must(enc, act('ana', 'defensive-stance', { check: { successes: 0 } }));
    must(enc, { type: 'next' });
    expect(checkOf(must(enc, act('bren', 'quick-attack', { target: 'ana' }))).notes).toEqual([
      "Ana's melee defense +4",
      'Ana Defensive Stance: melee defense bonus doubled (+2 → +4)',
    ]);
    // Not the ranged bonus: a shot meets the plain +1.
    expect(checkOf(must(enc, act('bren', 'loose', { target: 'ana' }))).notes).toEqual([
      "Ana's ranged defense +1",
      'Ana ranged defense bonus +1',
    ]);
    must(enc, { type: 'next' }); // round 2: Ana's turn begins, the stance ends
    expect(st(enc).effects).toHaveLength(0);
  });
});

describe('Magic: Gather arcane energy "turns in a row" and the crafted effect\'s rounds', () => {
  it('Gather arcane energy: after a turn without gathering the count of turns in a row starts again', () => {
    const enc = fight({}, [{ ...mage, stats: { ...mage.stats, ranks: { arcaneAptitude: 1 } } }, duo[1]!]);
    must(enc, act('mira', 'gather-arcane-energy', { check: { successes: 2 } }));
    nextUntil(enc, 'mira');
    expect(refused(enc, act('mira', 'gather-arcane-energy')).code).toBe('magic/gather-limit');
    must(enc, act('mira', 'shape-arcane-energy', { check: { successes: 1 } }));
    nextUntil(enc, 'mira');
    must(enc, act('mira', 'gather-arcane-energy', { check: { successes: 1 } }));
    expect(cs(enc, 'mira').arcane).toMatchObject({ stored: 3, shaped: 1, actions: 3, gatherStreak: 1 });
  });

  it('Release crafted effect: "can be thrown as normal within a number of rounds equal to … arcane aptitude"', () => {
    const enc = fight({}, [mage, duo[1]!]); // arcane aptitude 2
    must(enc, act('mira', 'gather-arcane-energy', { check: { successes: 2 } }));
    nextUntil(enc, 'mira');
    must(enc, act('mira', 'shape-arcane-energy', { check: { successes: 2 } }));
    nextUntil(enc, 'mira');
    must(enc, act('mira', 'release-crafted-effect'));
    expect(st(enc).round).toBe(3);
    expect(st(enc).effects.map((e) => e.name)).toEqual(['Crafted effect (2 successes)']);
    nextUntil(enc, 'mira'); // round 4: the second round it may be thrown in
    expect(st(enc).effects).toHaveLength(1);
    nextUntil(enc, 'mira'); // round 5: gone
    expect(st(enc).effects).toHaveLength(0);
  });
});

describe('Behind cover: at +9 "the character is completely covered and can not be attacked"', () => {
  it('a single +9 source covers completely; below +9 the bonus shows on the check', () => {
    const enc = fight();
    must(enc, { type: 'condition', target: 'bren', condition: 'cover', value: 9 });
    const r = refused(enc, act('ana', 'basic-attack', { target: 'bren' }));
    expect(r.message).toBe(
      'Bren has +9 cover: "completely covered and can not be attacked". Lower or remove the cover to attack.',
    );
    const low = fight();
    must(low, { type: 'condition', target: 'bren', condition: 'cover', value: 8 });
    expect(checkOf(must(low, act('ana', 'loose', { target: 'bren' }))).notes).toEqual([
      "Bren's ranged defense +8",
      'Bren cover +8',
    ]);
  });
});

describe('Move actions: each has its turn requirement reduced to zero as the first move of the turn', () => {
  it.each(['walk', 'dash', 'sprint', 'swim', 'climb', 'jump'])('%s as the first move is TR 0', (move) => {
    const enc = fight();
    const e = must(enc, act('ana', move, { check: { successes: 1, success: true } }));
    expect(e.find((x) => x.event.type === 'stamina/acted')!.event).toMatchObject({
      turnRequirement: 0,
      reduced: 'first-move',
    });
    must(enc, act('ana', 'basic-attack', { target: 'bren' }));
  });
});

describe('Take cover(2): a reaction that puts the cover bonus the GM gives on the character', () => {
  it('costs 2 stamina outside the own turn and adds the Cover condition', () => {
    const enc = fight();
    must(enc, act('bren', 'take-cover', { cover: 3 }));
    expect(cs(enc, 'bren').stamina).toBe(4);
    expect(st(enc).effects.map((e) => [e.name, e.target])).toEqual([['Cover +3', 'bren']]);
    expect(checkOf(must(enc, act('ana', 'loose', { target: 'bren' }))).notes).toContain('Bren cover +3');
  });
});
