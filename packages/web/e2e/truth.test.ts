import { type Command, decide, type EncounterState, isRejection, type LogEntry } from '@roundkeeper/engine';
import { rulesets } from '@roundkeeper/rulesets';
import fc from 'fast-check';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { commandFor, fresh, PLAYER, type Step, stepArb } from '../src/screen/play.js';
import { apiOf, endToEnd } from './harness.js';
import { axe, type Finding, type Role, readPage, violations } from './truth-read.js';

/**
 * End to end, what every page reads is true (issue 30): each ruleset plays a long session through a real
 * server — a second wave, the same example added twice from the GM page's list, a late arrival, the
 * ruleset's own commands (delays, readies, carry-overs…), removes, undo and redo, at least three rounds —
 * with a GM page, a table page and a player's page open, their sizes rotating through laptop, tablet,
 * phone and table screen. After each step every page is read from its DOM and must keep the invariants
 * the screen model keeps (`screen.property.test.ts`, driven by the same steps from `screen/play.ts`), and
 * at the end axe-core finds nothing serious or critical on any of the three pages.
 */
const env = endToEnd();
const api = apiOf(() => env.server);

const SIZES = [
  { name: 'laptop', width: 1280, height: 720 },
  { name: 'tablet', width: 768, height: 1024 },
  { name: 'phone', width: 360, height: 740 },
  { name: 'table screen', width: 1920, height: 1080 },
] as const;

const ROLES: Role[] = ['gm', 'table', 'player'];

interface Session {
  id: string;
  gm: string;
  table: string;
  player: string;
}

/** The fight as the server keeps it (the GM's view is the whole state), and the GM's log. */
async function truth(s: Session): Promise<{ seq: number; state: EncounterState; entries: LogEntry[] }> {
  const enc = (await api('GET', `/api/encounters/${s.id}`, s.gm)) as { seq: number; state: EncounterState };
  const log = (await api('GET', `/api/encounters/${s.id}/events?after=0`, s.gm)) as { entries: LogEntry[] };
  return { seq: enc.seq, state: enc.state, entries: log.entries };
}

/** Sends a command as the GM; false when the rules refuse it (422). */
async function send(s: Session, command: unknown): Promise<boolean> {
  const res = await fetch(`${env.server.url}/api/encounters/${s.id}/commands`, {
    method: 'POST',
    headers: { authorization: `Bearer ${s.gm}`, 'content-type': 'application/json' },
    body: JSON.stringify({ command }),
  });
  if (res.status === 422) return false;
  if (!res.ok) throw new Error(`${JSON.stringify(command)}: ${res.status} ${await res.text()}`);
  return true;
}

/**
 * The round the fight is in; for tick, which has no rounds, the stretch of 6 ticks (what a weapon's
 * ordinary attack costs there: each combatant comes round about once in it).
 */
function roundsOf(state: EncounterState): number {
  return state.ruleset === 'tick' ? Math.floor((state.now?.at[0] ?? 0) / 6) : state.round;
}

/** Whether the rules refuse a command of the GM's now (a dry run on the GM's whole state). */
function refused(state: EncounterState, command: Command): boolean {
  return isRejection(decide(state, command, rulesets, { by: { role: 'gm' } }));
}

/** Whether the server's log moved past `seq` within 3 s (a click the rules refuse leaves it). */
async function advanced(s: Session, seq: number): Promise<boolean> {
  for (let i = 0; i < 30; i++) {
    if ((await truth(s)).seq > seq) return true;
    await new Promise((ok) => setTimeout(ok, 100));
  }
  return false;
}

/**
 * Waits for a page to have drawn the change the server is at (`data-seq` on the page's root, set with the
 * log and the timeline's reading) and its timeline's picture to be of it, then reads it once: it must keep
 * every invariant.
 */
async function check(
  role: Role,
  page: Page,
  now: { seq: number; state: EncounterState; entries: LogEntry[] },
  step: string,
) {
  const what = `${now.state.ruleset}, ${role} page, after ${step}`;
  await page
    .getByTestId('timeline')
    .scrollIntoViewIfNeeded()
    .catch(() => undefined);
  await page
    .waitForFunction(
      (seq) =>
        Number(document.querySelector('.encounter-page')?.getAttribute('data-seq')) >= seq &&
        document.querySelector('.timeline-panel[data-stale]') === null,
      now.seq,
      { timeout: 10_000 },
    )
    .catch((e: unknown) => {
      throw new Error(`${what}: the page did not draw change ${now.seq}: ${String(e)}`);
    });
  expect(violations(role, await readPage(page), now.state, now.entries), what).toEqual([]);
}

interface Open {
  ctx: BrowserContext;
  page: Page;
}

async function open(s: Session, token: string, size: (typeof SIZES)[number]): Promise<Open> {
  const ctx = await env.browser.newContext({ viewport: { width: size.width, height: size.height } });
  const page = await ctx.newPage();
  await page.goto(`${env.server.url}/e/${encodeURIComponent(s.id)}?token=${encodeURIComponent(token)}`);
  await page.getByTestId('clock').waitFor();
  await expect.poll(() => page.getByTestId('connection').textContent()).toBe('live');
  return { ctx, page };
}

type RunMove = Step | { kind: 'library' } | { kind: 'raw'; command: Command };
type Move = RunMove | { kind: 'every-own' };

/**
 * A command of the ruleset's own of this type that the rules take now (a delay, a ready, a carried-over
 * spell, a plan…): for the actor first, then anyone, with one of the first few actions; null when none is.
 */
function ownOf(state: EncounterState, type: string): Command | null {
  const rs = rulesets[state.ruleset]!;
  const ids = state.roster.filter((id) => state.combatants[id]?.active);
  const who = state.current ? [state.current, ...ids.filter((id) => id !== state.current)] : ids;
  const actions = rs
    .catalog(state)
    .slice(0, 4)
    .map((a) => a.id);
  const keys = Object.keys((rs.commands[type] as { shape?: Record<string, unknown> }).shape ?? {});
  for (const id of who)
    for (const action of actions.length ? actions : ['none']) {
      const target = ids.find((other) => other !== id);
      // Only the fields its schema has (a ruleset's command schema may refuse any other).
      const fill: Record<string, unknown> = { actor: id, combatant: id, action, target };
      const command: Command = { type };
      for (const key of keys) if (fill[key] !== undefined) command[key] = fill[key];
      if (!refused(state, command)) return command;
    }
  return null;
}

/**
 * A turn's move that the rules take now, for when Next is refused or the clock moves by what is done
 * (tick): the actor's action as random play picks it, else the first of the ruleset's own commands, for
 * any combatant, that the rules take (a waiting combatant stepping in, a plan); null when none is.
 */
function moveOn(state: EncounterState, k: number): RunMove | null {
  const act = commandFor(state, { kind: 'act', pick: k, target: k });
  if (!refused(state, act)) return { kind: 'raw', command: act };
  for (const type of Object.keys(rulesets[state.ruleset]!.commands)) {
    const command = ownOf(state, type);
    if (command) return { kind: 'raw', command };
  }
  return null;
}

/** The moves every session makes, then random play from the screen's own step generator. */
function movesOf(index: number): Move[] {
  const scripted: Move[] = [
    { kind: 'next' },
    { kind: 'act', pick: 0, target: 2 },
    { kind: 'next' },
    { kind: 'wave' },
    { kind: 'library' },
    { kind: 'library' },
    { kind: 'act', pick: 1, target: 1 },
    { kind: 'own', type: 0, who: 0, action: 0 },
    { kind: 'next' },
    { kind: 'late' },
    { kind: 'own', type: 1, who: 1, action: 3 },
    { kind: 'hurt', who: 2, amount: 30 },
    { kind: 'every-own' },
    { kind: 'next' },
    { kind: 'own', type: 2, who: 3, action: 1 },
    { kind: 'remove', who: 5 },
    { kind: 'undo' },
    { kind: 'redo' },
    { kind: 'undo' },
    { kind: 'next' },
    { kind: 'max', who: 0 },
    { kind: 'own', type: 3, who: 2, action: 2 },
    { kind: 'next' },
  ];
  const random = fc.sample(stepArb, { numRuns: 16, seed: 30 + index });
  const out = [...scripted];
  for (const [i, step] of random.entries()) {
    out.push(step);
    if (i % 2 === 1) out.push({ kind: 'next' });
  }
  return out;
}

const pages = new Map<string, Record<Role, Open>>();
afterAll(async () => {
  for (const open of pages.values()) for (const o of Object.values(open)) await o.ctx.close();
});

describe('every page tells the truth through a long session of every ruleset', () => {
  for (const [index, rulesetId] of Object.keys(rulesets).entries()) {
    it(`${rulesetId}: GM, table and player pages keep the invariants after every step, at four sizes`, async () => {
      // The fight of the screen's property tests: two PCs, an NPC and a hidden NPC.
      const people = Object.values(fresh(rulesetId, 1).state.combatants).map((c) => ({
        id: c.id,
        name: c.name,
        side: c.side,
        hp: c.hp?.max,
        ...(c.hidden ? { hidden: true } : {}),
      }));
      const created = (await api('POST', '/api/encounters', null, {
        name: `Truth ${rulesetId}`,
        ruleset: rulesetId,
        seed: 7 + index,
        combatants: people,
      })) as {
        encounter: { id: string };
        tokens: { gm: string; table: string; players: Record<string, string> };
      };
      const s: Session = {
        id: created.encounter.id,
        gm: created.tokens.gm,
        table: created.tokens.table,
        player: created.tokens.players[PLAYER]!,
      };
      // Each page starts at another size, and the sizes turn every few steps.
      const sizeOf = (r: number, k: number) => SIZES[(r + index + Math.floor(k / 6)) % SIZES.length]!;
      const opened = {} as Record<Role, Open>;
      for (const [r, role] of ROLES.entries()) opened[role] = await open(s, s[role], sizeOf(r, 0));
      pages.set(rulesetId, opened);
      const gm = opened.gm.page;
      const counts = { applied: 0, refused: 0, kinds: new Set<string>() };
      const rolesAt = new Map<Role, string>();

      const run = async (move: RunMove, k: number) => {
        let { seq, state } = await truth(s);
        let applied: boolean;
        if (move.kind === 'library') {
          // The GM page's own list: the same ready example twice is a second wave with distinct names.
          const fold = gm.locator('.library details');
          if ((await fold.getAttribute('open')) === null) await fold.locator('summary').click();
          await gm
            .getByRole('button', { name: /^Add .+ from the examples$/ })
            .first()
            .click();
          applied = await advanced(s, seq);
        } else if (move.kind === 'next' && state.status === 'running') {
          if (refused(state, { type: 'next' })) {
            counts.refused++;
            return;
          }
          // Next by the GM page's button.
          await gm.getByRole('button', { name: /^Next/ }).click();
          applied = await advanced(s, seq);
        } else if (move.kind === 'undo' || move.kind === 'redo') {
          const button = gm.getByRole('button', { name: move.kind === 'undo' ? /^Undo/ : /^Redo/ });
          if (await button.isDisabled()) applied = false;
          else {
            await button.click();
            applied = await advanced(s, seq);
          }
        } else applied = await send(s, move.kind === 'raw' ? move.command : commandFor(state, move));
        if (!applied) {
          counts.refused++;
          return;
        }
        counts.applied++;
        counts.kinds.add(move.kind);
        const now = await truth(s);
        ({ seq, state } = now);
        for (const [r, role] of ROLES.entries()) {
          const size = sizeOf(r, k);
          const page = opened[role].page;
          if (rolesAt.get(role) !== size.name) {
            await page.setViewportSize({ width: size.width, height: size.height });
            rolesAt.set(role, size.name);
          }
          await check(role, page, now, `${move.kind} (step ${k}, ${size.name})`);
        }
      };

      const moves = movesOf(index);
      const owned = new Set<string>();
      for (const [k, move] of moves.entries()) {
        if (move.kind !== 'every-own') {
          await run(move, k);
          continue;
        }
        // Each of the ruleset's own commands once, where the rules take it now.
        for (const type of Object.keys(rulesets[rulesetId]!.commands).filter(
          (t) => !['start', 'next', 'act'].includes(t),
        )) {
          const command = ownOf((await truth(s)).state, type);
          if (!command) continue;
          owned.add(type);
          await run({ kind: 'raw', command }, k);
        }
        // And the actor's actions that run past the turn: a spell cast or channelled, a delay, an aim.
        const st = (await truth(s)).state;
        const actor = st.current;
        if (!actor) continue;
        for (const l of rulesets[rulesetId]!.legalActions(st, actor)) {
          if (!l.enabled || !/cast|channel|spell|delay|aim|ready/i.test(l.action.id)) continue;
          const target = st.roster.find((id) => id !== actor && st.combatants[id]?.active);
          const tries: Command[] = [
            { type: 'act', actor, action: l.action.id, ...(target ? { target } : {}) },
            { type: 'act', actor, action: l.action.id },
          ];
          const command = tries.find((c) => !refused(st, c));
          if (!command) continue;
          owned.add(`act ${l.action.id}`);
          await run({ kind: 'raw', command }, k);
          break;
        }
      }
      // At least three rounds (on tick, which has none, three stretches of 6 ticks):
      // Next until the fight is in its third (or a cap, which then fails below).
      let k = moves.length;
      // (Where Next waits for someone, as tempo's plans or tick's waiting combatants do, they move first;
      // on tick, whose clock moves by what is done, each turn is an action, then Next.)
      let acted = false;
      for (let st = (await truth(s)).state; roundsOf(st) < 3 && k < moves.length + 90; ) {
        const act = commandFor(st, { kind: 'act', pick: k, target: k });
        const move: RunMove | null =
          st.ruleset === 'tick' && !acted && act.type === 'act' && !refused(st, act)
            ? { kind: 'raw', command: act }
            : refused(st, { type: 'next' })
              ? moveOn(st, k)
              : { kind: 'next' };
        expect(move, `${rulesetId}: a move the rules take at round ${st.round}`).not.toBeNull();
        acted = move!.kind === 'raw' && move!.command.type === 'act';
        await run(move!, k++);
        st = (await truth(s)).state;
      }
      const end = await truth(s);
      expect(roundsOf(end.state), `${rulesetId}: rounds played`).toBeGreaterThanOrEqual(3);
      expect(
        owned.size,
        `${rulesetId}: one of its own commands or lasting actions was played`,
      ).toBeGreaterThan(0);
      for (const kind of ['next', 'wave', 'library', 'late', 'remove', 'undo', 'redo'])
        expect(counts.kinds, `${rulesetId}: a ${kind} step was played`).toContain(kind);
      expect(counts.applied).toBeGreaterThan(25);
    }, 120_000);
  }
});

/** Findings known and not fixed yet: none (the scrolling log and timeline take focus; defeated cards read). */
const known = (_f: Finding) => false;
const said = (role: Role, f: Finding) => `${role}: ${f.rule} (${f.impact}): ${f.target}`;
const found = new Map<string, string[]>();

describe('axe-core finds nothing serious or critical on the pages of those sessions', () => {
  for (const rulesetId of Object.keys(rulesets)) {
    it(`${rulesetId}: GM, table and player pages`, async () => {
      const opened = pages.get(rulesetId);
      expect(opened, 'the session above ran').toBeDefined();
      const fresh: string[] = [];
      const old: string[] = [];
      for (const role of ROLES)
        for (const f of await axe(opened![role].page)) (known(f) ? old : fresh).push(said(role, f));
      found.set(rulesetId, old);
      expect(fresh).toEqual([]);
    });
  }
  it('no known finding is left either (scrollable regions reach the keyboard, defeated cards read)', () => {
    expect(found.size, 'the checks above ran').toBe(Object.keys(rulesets).length);
    expect([...found.values()].flat()).toEqual([]);
  });
});
