import {
  commandForms,
  type EngineEvent,
  legalActions,
  renderTimelineAscii,
  resolveParams,
  view,
  viewLog,
} from '@roundkeeper/engine';
import { describe, expect, it } from 'vitest';
import { encounter, must, refused } from '../testing/harness.js';
import { actionsFor, speedAllows } from './catalog.js';
import { fight, party, plan, planned, registry, ts, until } from './fixtures.js';
import { tempo } from './index.js';

const alice = { role: 'player' as const, combatants: ['ana'] };
const bob = { role: 'player' as const, combatants: ['bren'] };
const table = { role: 'table' as const };

describe('Round structure: 2 actions per round, picked in a secret planning phase', () => {
  it('starts each round with a planning phase and allows 2 actions, not 3', () => {
    const enc = fight();
    must(enc, { type: 'start' });
    expect(ts(enc).rs.phase).toBe('planning');
    expect(enc.state.now).toEqual({ round: 1, at: [] });
    plan(enc, 'ana', 'rest');
    plan(enc, 'ana', 'shift');
    const r = refused(enc, { type: 'plan', actor: 'ana', action: 'scan' });
    expect(r.code).toBe('plan/full');
    expect(r.message).toContain('Ana has already planned 2 actions this round (Rest, Shift)');
  });

  it('the GM cannot count tempo until every PC has planned (unless skipPlanning)', () => {
    const enc = fight();
    must(enc, { type: 'start' });
    plan(enc, 'ana', 'rest');
    plan(enc, 'ana', 'shift');
    plan(enc, 'bren', 'guard');
    const r = refused(enc, { type: 'next' });
    expect(r.code).toBe('planning/incomplete');
    expect(r.message).toContain('Bren (1 of 2)');
    expect(r.message).toContain('Plan them, or tick Count anyway and press Next.');
    must(enc, { type: 'next', skipPlanning: true });
    expect(ts(enc).rs.phase).toBe('tempo');
  });

  it("a player ends their own character's turn; the GM alone ends planning and others' turns", () => {
    const enc = planned();
    expect(enc.execute({ type: 'next' }, { by: alice })).toMatchObject({ code: 'auth/gm-only' });
    must(enc, { type: 'next' }); // Ana's Mark at tempo 2
    expect(enc.state.current).toBe('ana');
    expect(enc.execute({ type: 'next' }, { by: bob })).toMatchObject({
      code: 'auth/gm-only',
      message: "Only the GM or the acting character's player can end this turn.",
    });
    expect(enc.execute({ type: 'next' }, { by: table })).toMatchObject({ code: 'auth/gm-only' });
    const before = enc.state.now;
    expect(enc.execute({ type: 'next' }, { by: alice })).not.toHaveProperty('code');
    expect(enc.state.now).not.toEqual(before);
  });

  it('a player may change an upcoming choice until the action is taken', () => {
    const enc = planned();
    const attack = ts(enc).combatants.ana!.cs.plan[1]!.id;
    must(enc, { type: 'next' }); // Ana's Mark at tempo 2
    plan(enc, 'ana', 'slow-attack', { replace: attack });
    expect(ts(enc).combatants.ana!.cs.plan.map((p) => p.action)).toEqual(['mark', 'slow-attack']);
    const mark = ts(enc).combatants.ana!.cs.plan[0]!.id;
    expect(refused(enc, { type: 'plan', actor: 'ana', action: 'scan', replace: mark }).code).toBe(
      'plan/taken',
    );
    expect(refused(enc, { type: 'unplan', actor: 'ana', plan: mark }).code).toBe('plan/taken');
  });

  it('a player plans only their own character', () => {
    const enc = fight();
    must(enc, { type: 'start' });
    const r = enc.execute({ type: 'plan', actor: 'ana', action: 'rest' }, { by: bob });
    expect(r).toMatchObject({ code: 'auth/not-yours' });
    expect(enc.execute({ type: 'plan', actor: 'ana', action: 'rest' }, { by: alice })).not.toHaveProperty(
      'code',
    );
  });
});

describe("Order within a tempo: the table chooses (act-next); a side's part lasts until its last action", () => {
  it('act-next moves a PC ahead of the other PCs at the tempo the count comes to, never past the NPCs', () => {
    const enc = fight();
    must(enc, { type: 'start' });
    plan(enc, 'ana', 'guard');
    plan(enc, 'ana', 'hide');
    plan(enc, 'bren', 'move');
    plan(enc, 'bren', 'slow-attack');
    plan(enc, 'wolf', 'move');
    // Both PCs at tempo 4 (Guard, Move): roster order would be Ana first.
    const r = refused(enc, { type: 'act-next', actor: 'wolf' });
    expect(r.code).toBe('order/not-next');
    // An NPC action at tempo 4 would still come after the PCs': no way to go next, only to wait.
    expect(r.message).toBe(
      "Wolf cannot take the next turn: the next turns are the PCs' at tempo 4, and Wolf is not one of the PCs. Wait for the count to reach Wolf's action.",
    );
    expect(enc.execute({ type: 'act-next', actor: 'bren' }, { by: alice })).toMatchObject({
      code: 'auth/not-yours',
    });
    expect(enc.execute({ type: 'act-next', actor: 'bren' }, { by: bob })).not.toHaveProperty('code');
    // Moving Ana's Guard behind Bren's Move does not reveal it to the table or to Bren's player.
    for (const viewer of [bob, table]) {
      const log = JSON.stringify(viewLog(enc.entries, viewer, enc.state, tempo as never));
      expect(log).not.toContain('Guard');
    }
    const gm = JSON.stringify(viewLog(enc.entries, { role: 'gm' }, enc.state, tempo as never));
    expect(gm).toContain('Ana: Guard');
    must(enc, { type: 'next' });
    expect([enc.state.current, ts(enc).combatants.bren!.cs.turn!.action]).toEqual(['bren', 'move']);
    must(enc, { type: 'next' });
    expect([enc.state.current, ts(enc).combatants.ana!.cs.turn!.action]).toEqual(['ana', 'guard']);
    must(enc, { type: 'next' });
    expect(enc.state.current).toBe('wolf');
    const late = refused(enc, { type: 'act-next', actor: 'bren' });
    expect(late.message).toContain('Bren has no action still to take at tempo 6');
  });

  it('a PC with nothing at the next tempo is told how to get there', () => {
    const enc = planned();
    // Planning phase: no turn is under way, so an Exert (done at the end of a turn) is no way there yet.
    const r = refused(enc, { type: 'act-next', actor: 'bren' });
    expect(r.message).toBe(
      "Bren cannot take the next turn: Bren has no action still to take at tempo 2, where the count goes next. Change a planned action to one at tempo 2, or wait for the count to reach Bren's action.",
    );
    must(enc, { type: 'next' });
    // Tempo 2, Ana's Mark; the count goes on to the Orc's Roar at tempo 2 next.
    expect(refused(enc, { type: 'act-next', actor: 'bren' }).message).toBe(
      "Bren cannot take the next turn: the next turns are the NPCs' at tempo 2, and Bren is not one of the NPCs. Change a planned action to one at tempo 2 (or Exert to move one there), or wait for the count to reach Bren's action.",
    );
  });

  it("a PC is not told to change a plan into a tempo whose PCs' part is over", () => {
    const enc = fight();
    must(enc, { type: 'start' });
    plan(enc, 'ana', 'mark');
    plan(enc, 'ana', 'standard-attack');
    const guard = plan(enc, 'bren', 'guard');
    plan(enc, 'bren', 'slow-attack');
    plan(enc, 'orc', 'roar');
    plan(enc, 'orc', 'cleave');
    plan(enc, 'wolf', 'scan');
    plan(enc, 'wolf', 'move');
    must(enc, { type: 'next' });
    must(enc, { type: 'next' });
    // The Orc roars at tempo 2 and the Wolf's Scan comes next: a PC action at tempo 2 would be refused now,
    // so only waiting is offered.
    expect(enc.state.current).toBe('orc');
    const r = refused(enc, { type: 'act-next', actor: 'bren' });
    expect(r.message).toBe(
      "Bren cannot take the next turn: the next turns are the NPCs' at tempo 2, and Bren is not one of the NPCs. Wait for the count to reach Bren's action.",
    );
    expect(refused(enc, { type: 'plan', actor: 'bren', action: 'scan', replace: guard }).code).toBe(
      'plan/tempo-passed',
    );
  });
});

describe('Round structure: secret plans (view and viewLog)', () => {
  it("a player's plan is absent from another player's view and the table view until taken", () => {
    const enc = fight();
    must(enc, { type: 'start' });
    enc.execute({ type: 'plan', actor: 'ana', action: 'mark' }, { by: alice });
    enc.execute({ type: 'plan', actor: 'ana', action: 'slow-attack' }, { by: alice });
    plan(enc, 'bren', 'guard');
    plan(enc, 'bren', 'standard-attack');
    for (const viewer of [bob, table]) {
      const seen = JSON.stringify(view(enc.state, viewer, tempo as never));
      expect(seen).not.toContain('slow-attack');
      expect(seen).not.toContain('"mark"');
      const log = JSON.stringify(viewLog(enc.entries, viewer, enc.state, tempo as never));
      expect(log).not.toContain('slow-attack');
      expect(log).not.toContain('Slow Attack');
      expect(log).not.toContain('"mark"');
      expect(log).not.toContain('Mark');
    }
    // Ana's player sees her own plan; the GM sees everything.
    expect(JSON.stringify(view(enc.state, alice, tempo as never))).toContain('slow-attack');
    expect(JSON.stringify(viewLog(enc.entries, alice, enc.state, tempo as never))).toContain('slow-attack');
    expect(JSON.stringify(view(enc.state, { role: 'gm' }, tempo as never))).toContain('slow-attack');
    // Bob's own plan stays visible to Bob but not to Alice.
    expect(JSON.stringify(view(enc.state, bob, tempo as never))).toContain('"guard"');
    expect(JSON.stringify(view(enc.state, alice, tempo as never))).not.toContain('"guard"');

    // Taken: Mark (tempo 2) is revealed; Slow Attack (tempo 7) stays secret.
    plan(enc, 'orc', 'roar');
    plan(enc, 'orc', 'cleave');
    must(enc, { type: 'next' });
    expect(enc.state.current).toBe('ana');
    for (const viewer of [bob, table]) {
      const seen = JSON.stringify(view(enc.state, viewer, tempo as never));
      expect(seen).toContain('"mark"');
      expect(seen).not.toContain('slow-attack');
      const log = JSON.stringify(viewLog(enc.entries, viewer, enc.state, tempo as never));
      expect(log).toContain('"mark"');
      expect(log).not.toContain('slow-attack');
    }
  });

  it('the timeline drawn from the table view shows no plan until it is taken', () => {
    const enc = planned();
    const lanesFor = (viewer: typeof table | typeof alice) =>
      tempo.timeline(view(enc.state, viewer, tempo as never) as never).lanes;
    expect(lanesFor(table).flatMap((l) => l.spans)).toEqual([]);
    expect(
      lanesFor(alice)
        .filter((l) => l.id !== 'ana')
        .flatMap((l) => l.spans),
    ).toEqual([]);
    expect(lanesFor(alice).find((l) => l.id === 'ana')!.spans).toHaveLength(2);
    must(enc, { type: 'next' }); // Ana takes Mark
    expect(lanesFor(table).flatMap((l) => l.spans.map((x) => `${l.id}:${x.label}`))).toEqual(['ana:Mark']);
  });

  it('an Exert that moves a plan to another tempo does not leak the plan', () => {
    const enc = planned();
    must(enc, { type: 'next' });
    const slow = ts(enc).combatants.bren!.cs.plan[1]!.id;
    must(enc, { type: 'exert', actor: 'bren', use: 'change-tempo', plan: slow, tempo: 8 });
    const log = viewLog(enc.entries, alice, enc.state, tempo as never);
    const exerted = log.filter((e) => e.event.type === 'tempo/exerted').map((e) => e.event);
    expect(exerted).toHaveLength(1);
    expect(exerted[0]).not.toHaveProperty('plan');
    expect(exerted[0]).not.toHaveProperty('tempo');
  });
});

describe('Tempo count: each action at its tempo; at each tempo all PCs, then all NPCs', () => {
  it('takes the planned actions in tempo order, PCs before NPCs at the same tempo', () => {
    const enc = planned();
    const seen: string[] = [];
    must(enc, { type: 'next' });
    for (let i = 0; i < 8; i++) {
      const c = ts(enc).combatants[enc.state.current!]!;
      seen.push(`${enc.state.now!.at[0]} ${c.id} ${c.cs.turn!.action}`);
      must(enc, { type: 'next' });
    }
    expect(seen).toEqual([
      '2 ana mark',
      '2 orc roar',
      '3 wolf quick-attack',
      '4 bren guard',
      '4 wolf move',
      '5 ana standard-attack',
      '5 orc cleave',
      '7 bren slow-attack',
    ]);
    expect(enc.state.round).toBe(2);
    expect(ts(enc).rs.phase).toBe('planning');
  });

  it('a PC acts before an NPC at the same tempo even when the NPC joined first', () => {
    const enc = encounter({ ruleset: 'tempo', combatants: [party[3]!, party[1]!] }, registry);
    must(enc, { type: 'start' });
    plan(enc, 'wolf', 'guard');
    plan(enc, 'bren', 'guard');
    must(enc, { type: 'next', skipPlanning: true });
    expect(enc.state.current).toBe('bren');
    must(enc, { type: 'next' });
    expect(enc.state.current).toBe('wolf');
  });

  it('PCs at the same tempo act in roster order, then NPCs in roster order (the decision in the doc)', () => {
    const enc = fight();
    must(enc, { type: 'start' });
    plan(enc, 'bren', 'guard');
    plan(enc, 'ana', 'guard');
    plan(enc, 'wolf', 'move');
    plan(enc, 'orc', 'cleave');
    plan(enc, 'orc', 'roar');
    must(enc, { type: 'define-action', action: { id: 'howl', name: 'Howl', data: { tempo: 4 } } });
    plan(enc, 'wolf', 'howl');
    must(enc, { type: 'next', skipPlanning: true });
    const order: string[] = [];
    while (enc.state.round === 1) {
      const c = ts(enc).combatants[enc.state.current!]!;
      order.push(`${enc.state.now!.at[0]} ${c.id} ${c.cs.turn!.action}`);
      must(enc, { type: 'next' });
    }
    expect(order).toEqual([
      '2 orc roar',
      '4 ana guard',
      '4 bren guard',
      '4 wolf move',
      '4 wolf howl',
      '5 orc cleave',
    ]);
  });

  it('each action happens at its tempo from the table', () => {
    const byId = Object.fromEntries(
      tempo.catalog(ts(fight())).map((a) => [a.id, a.data?.tempo ?? (a.data?.variableTempo ? '?' : null)]),
    );
    expect(byId).toMatchObject({
      rest: 1,
      scan: 2,
      mark: 2,
      'quick-attack': 3,
      help: 3,
      move: 4,
      guard: 4,
      'standard-attack': 5,
      inventory: 6,
      hide: 6,
      'slow-attack': 7,
      shift: 7,
      magic: '?',
      intercept: 4,
      'dual-wield': 0,
    });
  });

  it('uses the table tempos and the spell tempo for Magic', () => {
    const enc = fight();
    must(enc, { type: 'start' });
    expect(refused(enc, { type: 'plan', actor: 'ana', action: 'magic' }).code).toBe('plan/tempo-needed');
    plan(enc, 'ana', 'magic', { tempo: 8, spell: 'Fire Bolt' });
    plan(enc, 'ana', 'hide');
    expect(ts(enc).combatants.ana!.cs.plan.map((p) => p.tempo)).toEqual([8, 6]);
    expect(refused(enc, { type: 'plan', actor: 'bren', action: 'help', tempo: 1 }).code).toBe(
      'plan/tempo-fixed',
    );
  });

  it("Magic asks for the spell's tempo when it is planned, and is refused without it by that name", () => {
    const enc = fight();
    must(enc, { type: 'start' });
    const magic = legalActions(enc.state, 'ana', registry).find((l) => l.action.id === 'magic')!;
    expect(magic.params?.map((p) => [p.label, p.type, p.required])).toEqual([
      ["Spell's tempo", 'integer', true],
      ['Spell', 'text', false],
      ['Taken as', 'choice', false],
      ['Instead of', 'choice', false],
    ]);
    expect(refused(enc, { type: 'plan', actor: 'ana', action: 'magic' }).message).toBe(
      "Magic happens at the spell's tempo; enter the Spell's tempo (0–9).",
    );
    const intercept = legalActions(enc.state, 'ana', registry).find((l) => l.action.id === 'intercept')!;
    expect(intercept.params?.map((p) => p.label)).toEqual(['Trigger', 'Target', 'Roll']);
  });

  it('a planned action is changed by picking it by name, never by its id', () => {
    const enc = fight();
    must(enc, { type: 'start' });
    const bolt = plan(enc, 'ana', 'magic', { tempo: 8, spell: 'Fire Bolt' });
    const help = legalActions(enc.state, 'ana', registry).find((l) => l.action.id === 'help')!;
    const instead = help.params?.find((p) => p.name === 'replace');
    expect(instead?.options).toEqual([{ value: bolt, label: 'Magic (Fire Bolt) at tempo 8' }]);
    // Withdraw and Exert name the plan the same way.
    const unplan = commandForms(tempo).find((f) => f.type === 'unplan')!;
    const [picked] = resolveParams(enc.state, 'ana', unplan.params, [], tempo.present);
    expect(picked?.type).toBe('choice');
    expect(picked?.options?.map((o) => o.label)).toEqual(['Magic (Fire Bolt) at tempo 8']);
  });

  it('Magic: a planned spell keeps its tempo; moving the same spell takes an Exert', () => {
    const enc = planned();
    const attack = ts(enc).combatants.ana!.cs.plan[1]!.id;
    const bolt = plan(enc, 'ana', 'magic', { tempo: 8, spell: 'Fire Bolt', replace: attack });
    const r = refused(enc, {
      type: 'plan',
      actor: 'ana',
      action: 'magic',
      spell: 'Fire Bolt',
      tempo: 3,
      replace: bolt,
    });
    expect(r.code).toBe('plan/tempo-fixed');
    expect(r.message).toBe(
      "Fire Bolt was planned at tempo 8; moving the same spell to tempo 3 takes an Exert (Change a planned action's tempo), or plan a different spell.",
    );
    plan(enc, 'ana', 'magic', { spell: 'Frost Ray', tempo: 3, replace: bolt });
    plan(enc, 'ana', 'magic', { replace: bolt });
    expect(ts(enc).combatants.ana!.cs.plan[1]).toMatchObject({ spell: 'Frost Ray', tempo: 3 });
    must(enc, { type: 'next' });
    must(enc, { type: 'exert', actor: 'ana', use: 'change-tempo', plan: bolt, tempo: 9 });
    expect(ts(enc).combatants.ana!.cs.plan[1]).toMatchObject({ spell: 'Frost Ray', tempo: 9 });
  });

  it('NPCs with GM-defined action sets act only with them', () => {
    const enc = fight();
    must(enc, { type: 'start' });
    const r = refused(enc, { type: 'plan', actor: 'orc', action: 'rest' });
    expect(r.code).toBe('tempo/npc-action-sets');
    expect(r.message).toContain('Roar, Cleave');
    plan(enc, 'orc', 'cleave');
    expect(refused(enc, { type: 'plan', actor: 'ana', action: 'cleave' }).code).toBe('action/unknown');
  });

  it('an action set the stat block gives no id is planned by one made from its name', () => {
    const sets = [
      { name: 'Roar', tempo: 2, text: 'Frightens those nearby.' },
      { name: 'Roar', tempo: 6, text: 'Again, louder.' },
      { id: 'set-bite', name: 'Snap', tempo: 4 },
      { name: 'Bite!', tempo: 3 },
    ];
    const enc = encounter(
      {
        ruleset: 'tempo',
        seed: 1,
        combatants: [
          party[0]!,
          { id: 'ogre', name: 'Ogre', side: 'npc', hp: 30, stats: { actionSets: sets } },
        ],
      },
      registry,
    );
    must(enc, { type: 'start' });
    const ids = actionsFor(ts(enc), ts(enc).combatants.ogre)
      .filter((a) => a.data?.actionSet)
      .map((a) => a.id);
    // Numbered after the first of a name; never the id another set was given.
    expect(ids).toEqual(['set-roar', 'set-roar-2', 'set-bite', 'set-bite-2']);
    plan(enc, 'ogre', 'set-roar-2');
    expect(ts(enc).combatants.ogre!.cs.plan[0]).toMatchObject({ action: 'set-roar-2', tempo: 6 });
  });

  it('a plan for a tempo the count has passed is refused', () => {
    const enc = planned();
    until(enc, 'ana', 'standard-attack'); // tempo 5
    const mark = ts(enc).combatants.bren!.cs.plan[1]!.id;
    const r = refused(enc, { type: 'plan', actor: 'bren', action: 'quick-attack', replace: mark });
    expect(r.code).toBe('plan/tempo-passed');
    expect(r.message).toContain('count is already at tempo 5');
  });
});

describe('Unique Action Restriction', () => {
  it('each action in a round must be different', () => {
    const enc = fight();
    must(enc, { type: 'start' });
    plan(enc, 'bren', 'guard');
    const r = refused(enc, { type: 'plan', actor: 'bren', action: 'guard' });
    expect(r.code).toBe('unique/repeated');
  });

  it('all Attacks count as the same action', () => {
    const enc = fight();
    must(enc, { type: 'start' });
    plan(enc, 'ana', 'quick-attack');
    const r = refused(enc, { type: 'plan', actor: 'ana', action: 'standard-attack' });
    expect(r.message).toBe(
      'Standard Attack is unavailable: you already planned Quick Attack — all attacks are one action.',
    );
  });

  it('Inventory consuming a Strike also counts as an Attack', () => {
    const enc = fight();
    must(enc, { type: 'start' });
    plan(enc, 'ana', 'inventory', { strike: true });
    expect(refused(enc, { type: 'plan', actor: 'ana', action: 'slow-attack' }).code).toBe('unique/repeated');
  });

  it('an Inventory Strike refused after an Attack says it counts as an Attack', () => {
    const enc = fight();
    must(enc, { type: 'start' });
    plan(enc, 'ana', 'quick-attack');
    const r = refused(enc, { type: 'plan', actor: 'ana', action: 'inventory', strike: true });
    expect(r.message).toBe(
      'Inventory is unavailable: with a Strike consumable it counts as an Attack action, and you already planned Quick Attack — all attacks are one action.',
    );
  });

  it('an ability-granted action is unique unless it lists another action; if it does it is that action', () => {
    const enc = fight();
    must(enc, {
      type: 'define-action',
      action: { id: 'lunge', name: 'Lunge', tags: ['Extra'], data: { as: 'quick-attack', tempo: 1 } },
    });
    must(enc, {
      type: 'define-action',
      action: { id: 'battle-cry', name: 'Battle Cry', tags: ['Extra'], data: { tempo: 2 } },
    });
    must(enc, { type: 'start' });
    plan(enc, 'ana', 'standard-attack');
    plan(enc, 'ana', 'battle-cry');
    const r = refused(enc, { type: 'plan', actor: 'ana', action: 'lunge' });
    expect(r.code).toBe('unique/repeated');
    expect(r.message).toContain('all attacks are one action');
    // "Extra actions are still under the Unique Action Restriction."
    expect(refused(enc, { type: 'plan', actor: 'ana', action: 'battle-cry' }).code).toBe('unique/repeated');
  });

  it('reactions ignore it: Dual Wield strikes again after the round’s one Attack', () => {
    const enc = fight();
    must(enc, { type: 'start' });
    plan(enc, 'ana', 'quick-attack');
    plan(enc, 'ana', 'hide');
    must(enc, { type: 'next', skipPlanning: true });
    until(enc, 'ana', 'quick-attack');
    must(enc, { type: 'act', actor: 'ana', weapon: 'Left Dagger', target: 'orc' });
    // A second Strike in the round, though "All Attacks count as the same action".
    must(enc, { type: 'react', actor: 'ana', reaction: 'dual-wield', trigger: 'Strike with Left Dagger' });
    expect(ts(enc).combatants.ana!.cs.reactions.map((r) => r.reaction)).toEqual(['dual-wield']);
  });

  it('Free actions ignore it', () => {
    const enc = fight();
    must(enc, {
      type: 'define-action',
      action: { id: 'jab', name: 'Jab', tags: ['Free'], data: { as: 'quick-attack' } },
    });
    must(enc, { type: 'start' });
    plan(enc, 'ana', 'quick-attack');
    plan(enc, 'ana', 'jab');
    plan(enc, 'ana', 'jab');
    expect(ts(enc).combatants.ana!.cs.plan.map((p) => `${p.action}/${p.slot}@${p.tempo}`)).toEqual([
      'quick-attack/action@3',
      'jab/free@3',
      'jab/free@3',
    ]);
  });
});

describe('Weapon speed: an Attack strikes only with a weapon of its speed or quicker', () => {
  it('"a matching Weapon Speed or quicker": Quick Attack quick only, Standard Attack quick or standard, Slow Attack any', () => {
    const allowed = (['quick', 'standard', 'slow'] as const).flatMap((attack) =>
      (['quick', 'standard', 'slow'] as const)
        .filter((weapon) => speedAllows(attack, weapon))
        .map((weapon) => `${attack}:${weapon}`),
    );
    expect(allowed).toEqual([
      'quick:quick',
      'standard:quick',
      'standard:standard',
      'slow:quick',
      'slow:standard',
      'slow:slow',
    ]);
  });

  it('refuses a Quick Attack with a standard weapon in hand; a Standard Attack strikes with a quick one', () => {
    const ana = { ...party[0]!, stats: { ...party[0]!.stats, held: ['Left Dagger', 'Sword'] } };
    const enc = encounter({ ruleset: 'tempo', combatants: [ana, party[1]!] }, registry);
    must(enc, { type: 'start' });
    plan(enc, 'ana', 'quick-attack');
    plan(enc, 'ana', 'hide');
    plan(enc, 'bren', 'standard-attack');
    plan(enc, 'bren', 'rest');
    until(enc, 'ana', 'quick-attack');
    const r = refused(enc, { type: 'act', actor: 'ana', weapon: 'Sword', target: 'bren' });
    expect(r.code).toBe('strike/too-slow');
    expect(r.message).toBe(
      'Sword is a standard weapon; a Quick Attack strikes only with a quick weapon or quicker.',
    );
    must(enc, { type: 'act', actor: 'ana', weapon: 'Left Dagger', target: 'bren' });
    until(enc, 'bren', 'standard-attack');
    const slow = refused(enc, { type: 'act', actor: 'bren', weapon: 'Greataxe', target: 'ana' });
    expect(slow.message).toBe(
      'Greataxe is a slow weapon; a Standard Attack strikes only with a standard weapon or quicker.',
    );
    while (enc.state.round === 1) must(enc, { type: 'next' });
    plan(enc, 'ana', 'standard-attack');
    plan(enc, 'ana', 'hide');
    plan(enc, 'bren', 'slow-attack');
    plan(enc, 'bren', 'rest');
    until(enc, 'ana', 'standard-attack');
    must(enc, { type: 'act', actor: 'ana', weapon: 'Left Dagger', target: 'bren' });
    until(enc, 'bren', 'slow-attack');
    must(enc, { type: 'act', actor: 'bren', weapon: 'Greataxe', target: 'ana' });
  });

  it('a Strike without a Weapon uses the one weapon it can be made with; with two, it asks which', () => {
    const enc = planned();
    until(enc, 'ana', 'standard-attack');
    const r = refused(enc, { type: 'act', actor: 'ana', target: 'orc' });
    expect(r.code).toBe('strike/no-weapon');
    expect(r.message).toBe(
      'Standard Attack is a Strike: choose the Weapon it uses (Left Dagger or Right Dagger).',
    );
    must(enc, { type: 'act', actor: 'ana', weapon: 'Right Dagger', target: 'orc' });
    until(enc, 'bren', 'slow-attack');
    const struck = must(enc, { type: 'act', actor: 'bren', target: 'orc' });
    expect(struck.find((e) => e.event.type === 'tempo/acted')?.event).toMatchObject({ weapon: 'Greataxe' });
  });

  it('strikes only with a held weapon; an Inventory action stows one and draws another', () => {
    const enc = fight();
    must(enc, { type: 'start' });
    plan(enc, 'ana', 'inventory');
    plan(enc, 'ana', 'slow-attack');
    plan(enc, 'bren', 'rest');
    plan(enc, 'bren', 'hide');
    until(enc, 'ana', 'inventory');
    must(enc, { type: 'act', actor: 'ana', stow: 'Right Dagger', draw: 'Sword' });
    expect(ts(enc).combatants.ana!.cs.held).toEqual(['Left Dagger', 'Sword']);
    until(enc, 'ana', 'slow-attack');
    const r = refused(enc, { type: 'act', actor: 'ana', weapon: 'Right Dagger' });
    expect(r.code).toBe('strike/not-held');
    expect(r.message).toContain('an Inventory action draws it');
    must(enc, { type: 'act', actor: 'ana', weapon: 'Sword', target: 'orc' });
  });
});

describe('Normal Move: up to Speed each turn, split around the action; none on Extra or Free turns', () => {
  it('moves up to Speed in total, before and after the action, on its own turn only', () => {
    const enc = planned();
    must(enc, { type: 'next' }); // Ana, Mark, Speed 6
    expect(refused(enc, { type: 'move', actor: 'bren', distance: 1 }).code).toBe('turn/not-yours');
    const before = must(enc, { type: 'move', actor: 'ana', distance: 2 });
    expect(before[0]!.event).toMatchObject({ when: 'before', left: 4 });
    must(enc, { type: 'act', actor: 'ana', target: 'orc' });
    const entries = must(enc, { type: 'move', actor: 'ana', distance: 4 });
    expect(entries[0]!.event).toMatchObject({ when: 'after', left: 0 });
    expect(refused(enc, { type: 'move', actor: 'ana', distance: 1 }).code).toBe('move/too-far');
  });

  it('the Move action adds Speed to the Normal Move', () => {
    const enc = planned();
    until(enc, 'wolf', 'move');
    must(enc, { type: 'act', actor: 'wolf' });
    must(enc, { type: 'move', actor: 'wolf', distance: 16 });
    expect(refused(enc, { type: 'move', actor: 'wolf', distance: 1 }).code).toBe('move/too-far');
  });

  it('an Exerted action is a turn with its Normal Move (it has no Extra or Free tag)', () => {
    const enc = planned();
    must(enc, { type: 'next' }); // Ana: Mark
    must(enc, { type: 'exert', actor: 'ana', use: 'another-action' });
    plan(enc, 'ana', 'hide');
    until(enc, 'ana', 'hide');
    expect(ts(enc).combatants.ana!.cs.turn).toMatchObject({ slot: 'exert', moveLeft: 6 });
    must(enc, { type: 'move', actor: 'ana', distance: 6 });
  });

  it('no Normal Move on an Extra or Free turn, but an Extra or Free Move action still moves its Speed', () => {
    const enc = fight();
    must(enc, {
      type: 'define-action',
      action: { id: 'sprint', name: 'Sprint', tags: ['Extra'], data: { as: 'move' } },
    });
    must(enc, { type: 'start' });
    plan(enc, 'ana', 'sprint');
    must(enc, { type: 'next', skipPlanning: true });
    expect(ts(enc).combatants.ana!.cs.turn).toMatchObject({ action: 'sprint', slot: 'extra', moveLeft: 0 });
    expect(tempo.timeline(ts(enc)).lanes[0]!.spans[0]).toMatchObject({
      kind: 'move',
      label: 'Sprint (extra)',
    });
    const before = refused(enc, { type: 'move', actor: 'ana', distance: 1 });
    expect(before.code).toBe('move/no-normal-move');
    expect(before.message).toContain('take the Move action first (Take my action)');
    must(enc, { type: 'act', actor: 'ana' });
    must(enc, { type: 'move', actor: 'ana', distance: 6 });
    expect(refused(enc, { type: 'move', actor: 'ana', distance: 1 }).code).toBe('move/no-normal-move');
  });

  it('no Normal Move on an Extra turn', () => {
    const enc = fight();
    must(enc, {
      type: 'define-action',
      action: { id: 'dash', name: 'Dash', tags: ['Extra'], data: { tempo: 1 } },
    });
    must(enc, { type: 'start' });
    plan(enc, 'ana', 'dash');
    must(enc, { type: 'next', skipPlanning: true });
    expect(ts(enc).combatants.ana!.cs.turn!.slot).toBe('extra');
    const r = refused(enc, { type: 'move', actor: 'ana', distance: 1 });
    expect(r.code).toBe('move/no-normal-move');
  });
});

describe('Reactions: one per turn, each once per round, never twice for one trigger, gated by tempo', () => {
  function guarded() {
    const enc = planned();
    until(enc, 'bren', 'guard');
    must(enc, { type: 'act', actor: 'bren', target: 'ana' });
    return enc;
  }

  it('Guard grants Intercept (tempo 4) until the end of the round', () => {
    const enc = guarded();
    must(enc, { type: 'next' }); // wolf move
    must(enc, { type: 'react', actor: 'bren', reaction: 'intercept', trigger: 'Wolf hits Ana' });
    expect(ts(enc).combatants.bren!.cs.reactions).toHaveLength(1);
    expect(ts(enc).combatants.bren!.cs.guarding).toBe('ana');
    // "until the end of the round": the next round starts without it.
    while (enc.state.round === 1) must(enc, { type: 'next' });
    expect(ts(enc).combatants.bren!.cs.guarding).toBeNull();
    expect(ts(enc).combatants.bren!.cs.reactions).toEqual([]);
  });

  it('Guard protects someone else: Guarding oneself is refused', () => {
    const enc = planned();
    until(enc, 'bren', 'guard');
    const r = refused(enc, { type: 'act', actor: 'bren', target: 'bren' });
    expect(r.code).toBe('guard/target');
    expect(r.message).toContain('choose the adjacent character as the Target');
    expect(refused(enc, { type: 'act', actor: 'bren' }).code).toBe('guard/target');
  });

  it('Intercept without a Guard this round is refused', () => {
    const enc = planned();
    until(enc, 'wolf', 'move');
    const r = refused(enc, { type: 'react', actor: 'ana', reaction: 'intercept', trigger: 'x' });
    expect(r.code).toBe('reaction/prerequisite');
  });

  it('a reaction before its tempo is refused', () => {
    const enc = fight();
    must(enc, {
      type: 'define-action',
      action: { id: 'riposte', name: 'Riposte', kind: 'reaction', data: { tempo: 6 } },
    });
    planned(enc);
    until(enc, 'ana', 'standard-attack'); // tempo 5
    const r = refused(enc, { type: 'react', actor: 'bren', reaction: 'riposte', trigger: 'Ana is struck' });
    expect(r.code).toBe('reaction/too-early');
    expect(r.message).toContain('current turn is at tempo 5');
    until(enc, 'bren', 'slow-attack'); // tempo 7
    must(enc, { type: 'react', actor: 'bren', reaction: 'riposte', trigger: 'Orc misses' });
  });

  it('one reaction per turn, and each reaction once per round', () => {
    const enc = fight();
    must(enc, {
      type: 'define-action',
      action: { id: 'parry', name: 'Parry', kind: 'reaction', data: { tempo: 0 } },
    });
    planned(enc);
    until(enc, 'bren', 'guard');
    must(enc, { type: 'act', actor: 'bren', target: 'ana' });
    must(enc, { type: 'react', actor: 'bren', reaction: 'parry', trigger: 'Wolf bites' });
    expect(
      refused(enc, { type: 'react', actor: 'bren', reaction: 'intercept', trigger: 'Wolf hits Ana' }).code,
    ).toBe('reaction/used-this-turn');
    must(enc, { type: 'next' });
    expect(
      refused(enc, { type: 'react', actor: 'bren', reaction: 'parry', trigger: 'Wolf bites again' }).code,
    ).toBe('reaction/used-this-round');
    must(enc, { type: 'react', actor: 'bren', reaction: 'intercept', trigger: 'Wolf hits Ana' });
  });

  it('a reaction usable more than once per round never answers the same trigger twice', () => {
    const enc = fight();
    must(enc, {
      type: 'define-action',
      action: { id: 'dodge', name: 'Dodge', kind: 'reaction', data: { tempo: 0, usesPerRound: 3 } },
    });
    planned(enc);
    must(enc, { type: 'next' });
    must(enc, { type: 'react', actor: 'bren', reaction: 'dodge', trigger: 'Orc swings' });
    must(enc, { type: 'next' });
    expect(
      refused(enc, { type: 'react', actor: 'bren', reaction: 'dodge', trigger: 'Orc swings' }).code,
    ).toBe('reaction/same-trigger');
    must(enc, { type: 'react', actor: 'bren', reaction: 'dodge', trigger: 'Wolf bites' });
  });

  it('Dual Wield (tempo 0) needs two held weapons of equal speed and an Attack with one', () => {
    const enc = fight();
    must(enc, { type: 'start' });
    plan(enc, 'ana', 'quick-attack');
    plan(enc, 'ana', 'inventory');
    plan(enc, 'bren', 'slow-attack');
    plan(enc, 'bren', 'rest');
    must(enc, { type: 'next' });
    until(enc, 'ana', 'quick-attack');
    expect(refused(enc, { type: 'react', actor: 'ana', reaction: 'dual-wield', trigger: 'a' }).code).toBe(
      'reaction/no-trigger',
    );
    must(enc, { type: 'act', actor: 'ana', weapon: 'Left Dagger', target: 'orc' });
    must(enc, {
      type: 'react',
      actor: 'ana',
      reaction: 'dual-wield',
      trigger: 'Quick Attack with Left Dagger',
    });
    until(enc, 'bren', 'slow-attack');
    must(enc, { type: 'act', actor: 'bren', weapon: 'Greataxe' });
    const r = refused(enc, { type: 'react', actor: 'bren', reaction: 'dual-wield', trigger: 'b' });
    expect(r.code).toBe('reaction/prerequisite');
    expect(r.message).toContain('Bren holds Greataxe (slow)');
  });
});

describe('Help: choose an Ally in Range 1', () => {
  it('Help names an ally; an enemy or oneself is refused', () => {
    const enc = fight();
    must(enc, { type: 'start' });
    plan(enc, 'ana', 'help');
    plan(enc, 'ana', 'hide');
    must(enc, { type: 'next', skipPlanning: true });
    until(enc, 'ana', 'help');
    const enemy = refused(enc, { type: 'act', actor: 'ana', target: 'orc' });
    expect(enemy.code).toBe('help/ally');
    expect(enemy.message).toBe(
      "Help is for an Ally in Range 1: Orc is not Ana's ally; choose an ally on Ana's side.",
    );
    expect(refused(enc, { type: 'act', actor: 'ana', target: 'ana' }).message).toContain(
      'Ana cannot Help themselves',
    );
    expect(refused(enc, { type: 'act', actor: 'ana' }).code).toBe('help/ally');
    must(enc, { type: 'act', actor: 'ana', target: 'bren' });
  });
});

describe('Exert and Exertion', () => {
  it('Exert at the end of a turn: another action this round, ignoring the Unique Action Restriction', () => {
    const enc = planned();
    const early = refused(enc, { type: 'exert', actor: 'ana', use: 'another-action' });
    expect(early.code).toBe('exert/timing'); // still the planning phase: no turn to end
    must(enc, { type: 'next' }); // Ana: Mark
    expect(refused(enc, { type: 'plan', actor: 'ana', action: 'slow-attack' }).code).toBe('plan/full');
    must(enc, { type: 'exert', actor: 'ana', use: 'another-action' });
    plan(enc, 'ana', 'slow-attack'); // a second Attack: the Exerted action ignores uniqueness
    expect(ts(enc).combatants.ana!.cs.plan.map((p) => `${p.action}/${p.slot}`)).toEqual([
      'mark/action',
      'standard-attack/action',
      'slow-attack/exert',
    ]);
    expect(ts(enc).combatants.ana!.cs.exertion).toBe(1);
    until(enc, 'ana', 'slow-attack');
    expect(enc.state.now!.at[0]).toBe(7);
  });

  it('Exert changes an action to a different tempo', () => {
    const enc = planned();
    must(enc, { type: 'next' });
    const slow = ts(enc).combatants.bren!.cs.plan[1]!.id;
    must(enc, { type: 'exert', actor: 'bren', use: 'change-tempo', plan: slow, tempo: 3 });
    until(enc, 'bren', 'slow-attack');
    expect(enc.state.now!.at[0]).toBe(3);
  });

  it('maximum Exertion is 2 + FOR (minimum 1); at the maximum no voluntary Exertion', () => {
    const enc = encounter(
      {
        ruleset: 'tempo',
        combatants: [
          { id: 'ana', name: 'Ana', side: 'pc', stats: { FOR: 1 } },
          { id: 'frail', name: 'Frail', side: 'pc', stats: { FOR: -4 } },
        ],
      },
      registry,
    );
    must(enc, { type: 'start' });
    plan(enc, 'ana', 'scan');
    plan(enc, 'ana', 'hide');
    plan(enc, 'frail', 'mark');
    plan(enc, 'frail', 'help');
    must(enc, { type: 'next' });
    for (let i = 0; i < 3; i++) must(enc, { type: 'exert', actor: 'ana', use: 'momentum' });
    const r = refused(enc, { type: 'exert', actor: 'ana', use: 'momentum' });
    expect(r.code).toBe('exert/max');
    expect(r.message).toContain('Maximum Exertion (3 = 2 + FOR 1');
    must(enc, { type: 'next' });
    must(enc, { type: 'exert', actor: 'frail', use: 'momentum' });
    expect(refused(enc, { type: 'exert', actor: 'frail', use: 'momentum' }).message).toContain(
      '(1: 2 + FOR -4 = -2, raised to the minimum of 1)',
    );
  });

  it('forced beyond the maximum kills; dying while at the maximum kills', () => {
    const enc = planned();
    must(enc, { type: 'force-exertion', actor: 'bren', amount: 2 });
    expect(ts(enc).combatants.bren!.cs.dead).toBe(false);
    must(enc, { type: 'damage', combatant: 'bren', amount: 30 });
    expect(ts(enc).combatants.bren!.cs.dead).toBe(true);
    expect(enc.state.combatants.bren!.active).toBe(false);
    expect(enc.state.agenda.some((e) => e.combatant === 'bren')).toBe(false);
    must(enc, { type: 'force-exertion', actor: 'ana', amount: 3 });
    expect(ts(enc).combatants.ana!.cs.dead).toBe(false);
    const entries = must(enc, { type: 'force-exertion', actor: 'ana', amount: 1 });
    expect(entries.map((e) => e.event.type)).toContain('tempo/died');
    expect(ts(enc).combatants.ana!.cs.dead).toBe(true);
  });

  it('during your turn: 1d4 Momentum, clear a Condition; the other uses add 1 Exertion', () => {
    const enc = planned(fight(5));
    must(enc, { type: 'next' });
    const rolled = must(enc, { type: 'exert', actor: 'ana', use: 'momentum' });
    const roll = rolled.find((e) => e.event.type === 'dice/rolled')!.event.roll as {
      notation: string;
      total: number;
    };
    expect(roll.notation).toBe('1d4');
    expect(ts(enc).combatants.ana!.cs.momentum).toBe(roll.total);
    must(enc, { type: 'add-effect', target: 'ana', name: 'Prone', duration: { kind: 'indefinite' } });
    must(enc, { type: 'exert', actor: 'ana', use: 'clear-condition', effect: enc.state.effects[0]!.id });
    expect(enc.state.effects).toEqual([]);
    expect(refused(enc, { type: 'exert', actor: 'bren', use: 'momentum' }).code).toBe('exert/timing');
    must(enc, { type: 'exert', actor: 'bren', use: 'retry' });
    expect(ts(enc).combatants.bren!.cs.exertion).toBe(1);
    expect(
      enc.execute({ type: 'exert', actor: 'ana', use: 'prepared', amount: 2 }, { by: alice }),
    ).toMatchObject({
      code: 'auth/gm-only',
    });
    expect(refused(enc, { type: 'exert', actor: 'orc', use: 'retry' }).code).toBe('exert/pc-only');
  });

  it("during your turn: reclaim 1 Mana from the lowest committed tier (recorded; Mana is the GM's)", () => {
    const enc = planned();
    must(enc, { type: 'next' }); // Ana's Mark
    expect(refused(enc, { type: 'exert', actor: 'bren', use: 'reclaim-mana' }).code).toBe('exert/timing');
    const entries = must(enc, { type: 'exert', actor: 'ana', use: 'reclaim-mana' });
    const ev = entries.map((e) => e.event).find((e) => e.type === 'tempo/exerted')!;
    expect(ev).toMatchObject({ use: 'reclaim-mana', amount: 1, exertion: 1 });
    // A log entry's event is untyped; describeEvent takes the ruleset's typed events.
    expect(tempo.describeEvent?.(ev as never, ts(enc))).toBe(
      'Ana Exerts to reclaim 1 Mana from the lowest committed tier: Exertion 1.',
    );
  });

  it('"prepared in the past": the GM sets 1–3 Exertion, never beyond the maximum', () => {
    const enc = planned();
    must(enc, { type: 'next' }); // Ana's turn; Maximum Exertion 3 (FOR 1)
    must(enc, { type: 'exert', actor: 'ana', use: 'prepared', amount: 2, note: 'brought rope' });
    expect(ts(enc).combatants.ana!.cs.exertion).toBe(2);
    const r = refused(enc, { type: 'exert', actor: 'ana', use: 'prepared', amount: 2 });
    expect(r.code).toBe('exert/max');
    expect(r.message).toContain('2 of 3 Exertion; 2 more would go beyond the maximum');
    must(enc, { type: 'exert', actor: 'ana', use: 'prepared' });
    expect(ts(enc).combatants.ana!.cs.exertion).toBe(3);
  });

  it('retry a failed Skill roll: the retry is rolled when its dice are given', () => {
    const enc = planned();
    must(enc, { type: 'next' });
    const entries = must(enc, { type: 'exert', actor: 'bren', use: 'retry', roll: '1d20' });
    const rolled = entries.map((e) => e.event).find((e) => e.type === 'dice/rolled');
    expect(rolled).toMatchObject({ combatant: 'bren', purpose: 'Skill roll (retry)' });
    expect(ts(enc).combatants.bren!.cs.exertion).toBe(1);
    expect(refused(enc, { type: 'exert', actor: 'ana', use: 'momentum', roll: '1d20' }).code).toBe(
      'exert/roll',
    );
  });

  it('at the end of a scene each PC who Exerted takes damage equal to their Exertion', () => {
    const enc = planned();
    must(enc, { type: 'next' });
    must(enc, { type: 'exert', actor: 'ana', use: 'momentum' });
    must(enc, { type: 'exert', actor: 'ana', use: 'reclaim-mana' });
    must(enc, { type: 'end-scene' });
    expect(enc.state.combatants.ana!.hp!.current).toBe(18);
    expect(enc.state.combatants.bren!.hp!.current).toBe(24);
    must(enc, { type: 'end-scene' });
    expect(enc.state.combatants.ana!.hp!.current).toBe(18);
  });

  it('forced Exertion is not Exerting yourself: alone it deals no damage at the end of the scene', () => {
    const enc = planned();
    must(enc, { type: 'force-exertion', actor: 'bren', amount: 1, reason: 'a curse' });
    must(enc, { type: 'end-scene' });
    expect(enc.state.combatants.bren!.hp!.current).toBe(24);
    until(enc, 'bren', 'guard');
    must(enc, { type: 'exert', actor: 'bren', use: 'momentum' });
    must(enc, { type: 'end-scene' });
    expect(enc.state.combatants.bren!.hp!.current).toBe(22);
  });
});

describe('Tags: Extra and Free actions', () => {
  it('Extra: additional actions without limit, no Normal Move, still unique; Free: additional, ignores uniqueness', () => {
    const enc = fight();
    must(enc, {
      type: 'define-action',
      action: { id: 'shove', name: 'Shove', tags: ['Extra'], data: { tempo: 2 } },
    });
    must(enc, {
      type: 'define-action',
      action: { id: 'trip', name: 'Trip', tags: ['Extra'], data: { tempo: 3 } },
    });
    must(enc, {
      type: 'define-action',
      action: { id: 'shout', name: 'Shout', tags: ['Free'], data: { tempo: 0 } },
    });
    must(enc, { type: 'start' });
    plan(enc, 'ana', 'mark');
    plan(enc, 'ana', 'hide');
    plan(enc, 'ana', 'shove');
    plan(enc, 'ana', 'trip'); // "There is no limit to the number of Extra actions"
    plan(enc, 'ana', 'shout');
    plan(enc, 'ana', 'shout');
    expect(refused(enc, { type: 'plan', actor: 'ana', action: 'shove' }).code).toBe('unique/repeated');
    expect(refused(enc, { type: 'plan', actor: 'ana', action: 'scan', slot: 'extra' }).code).toBe(
      'plan/not-tagged',
    );
    must(enc, { type: 'next', skipPlanning: true });
    expect(ts(enc).combatants.ana!.cs.turn).toMatchObject({ action: 'shout', slot: 'free', moveLeft: 0 });
    expect(refused(enc, { type: 'move', actor: 'ana', distance: 1 }).message).toContain('Free turn');
  });
});

describe('Rest → Recover: a Shift later in the same round may Recover', () => {
  it('Recover after Rest removes Exertion; without Rest it is refused', () => {
    const enc = fight();
    must(enc, { type: 'start' });
    plan(enc, 'ana', 'rest');
    plan(enc, 'ana', 'shift');
    plan(enc, 'bren', 'shift');
    plan(enc, 'bren', 'mark');
    must(enc, { type: 'next' });
    must(enc, { type: 'exert', actor: 'ana', use: 'momentum' });
    must(enc, { type: 'act', actor: 'ana' });
    until(enc, 'ana', 'shift');
    must(enc, { type: 'act', actor: 'ana', recover: true });
    expect(ts(enc).combatants.ana!.cs.exertion).toBe(0);
    until(enc, 'bren', 'shift');
    expect(refused(enc, { type: 'act', actor: 'bren', recover: true }).code).toBe('recover/no-rest');
  });
});

describe('legalActions and timeline', () => {
  it('lists every action with reasons, e.g. attacks after an attack', () => {
    const enc = fight();
    must(enc, { type: 'start' });
    plan(enc, 'ana', 'quick-attack');
    const legal = tempo.legalActions(ts(enc), 'ana');
    expect(legal.map((l) => l.action.id)).toEqual(
      expect.arrayContaining(['rest', 'magic', 'intercept', 'dual-wield']),
    );
    const std = legal.find((l) => l.action.id === 'standard-attack')!;
    expect(std.enabled).toBe(false);
    expect(std.reason).toBe(
      'Standard Attack is unavailable: you already planned Quick Attack — all attacks are one action.',
    );
    const rest = legal.find((l) => l.action.id === 'rest')!;
    expect(rest.enabled).toBe(true);
    expect(rest.preview?.label).toBe('tempo 1 (action)');
    expect(legal.find((l) => l.action.id === 'intercept')!.reason).toContain('no turn is in progress');
  });

  it('draws tempo 0–9 lanes, PC rows then NPC rows', () => {
    const enc = planned();
    must(enc, { type: 'next' });
    const t = tempo.timeline(ts(enc));
    expect(t.axis).toMatchObject({ unit: 'tempo', from: 0, to: 9 });
    expect(t.lanes.map((l) => `${l.side}:${l.id}`)).toEqual(['pc:ana', 'pc:bren', 'npc:orc', 'npc:wolf']);
    expect(t.now).toEqual({ round: 1, at: 2 });
    expect(t.lanes[0]!.spans.map((s) => [s.from, !!s.planned])).toEqual([
      [2, false],
      [5, true],
    ]);
    expect(renderTimelineAscii(t)).toContain('Ana');
  });
});

it('secrecy: events other than plans pass through redactEvent unchanged', () => {
  expect(party).toHaveLength(4);
  const e: EngineEvent = { type: 'x' };
  // An event of a type no schema declares: redactEvent takes the typed ones, so it is passed as one.
  expect(tempo.redactEvent?.(e as never, table, ts(fight()), new Set())).toEqual(e);
});

describe('A sheet edited before the fight', () => {
  it('a weapon added in the editor before the fight is the one in hand; during the fight the hands stay', () => {
    const enc = fight();
    must(enc, {
      type: 'update-combatant',
      combatant: 'bren',
      stats: { weapons: [{ name: 'Spear', speed: 'standard' }] },
    });
    expect(ts(enc).combatants.bren!.cs.held).toEqual(['Spear']);
    must(enc, { type: 'start' });
    must(enc, {
      type: 'update-combatant',
      combatant: 'bren',
      stats: {
        weapons: [
          { name: 'Club', speed: 'standard' },
          { name: 'Spear', speed: 'standard' },
        ],
      },
    });
    expect(ts(enc).combatants.bren!.cs.held).toEqual(['Spear']);
  });
});
