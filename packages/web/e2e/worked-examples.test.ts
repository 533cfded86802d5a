import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  actionCommandOf,
  commandForms,
  type EncounterState,
  isRejection,
  type Json,
  type LegalAction,
  legalActions,
  type Param,
  paramsOfSchema,
  parseScenario,
  resolveParams,
} from '@roundkeeper/engine';
import { rulesets } from '@roundkeeper/rulesets';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { missingParams } from '../src/forms/form.js';
import { drawn, endToEnd, repo } from './harness.js';

/**
 * Each ruleset's worked example, played through the GM's page only — clicks, typing and shortcuts — from
 * the scenario's setup imported on the home page, must end in the state `roundkeeper run` reaches on the same
 * file. The driver turns each step's command into what a GM does: select the actor's card, click the action
 * in the palette and fill its form by the labels its parameters declare, `n` for next, the GM tools for HP,
 * conditions and defeat, the add form for a late arrival, "Other commands" for the ruleset's own commands.
 * A command with no way to be sent from the page fails the test, naming the field or command.
 */
const env = endToEnd();

const CHOSEN: { ruleset: string; file: string }[] = [
  { ruleset: 'classic', file: 'classic/ambush.yaml' },
  { ruleset: 'tara-corax', file: 'tara-corax/mage-casting.yaml' },
  // Delaying with the roll (a choice per combatant), the round mode changed mid-fight, refusals in words.
  { ruleset: 'tara-corax', file: 'tara-corax/refusals-say-what-happened.yaml' },
  { ruleset: 'six-second', file: 'six-second/spell-with-11-second-delay.yaml' },
  { ruleset: 'opend6', file: 'opend6/surprised-thug.yaml' },
  { ruleset: 'tempo', file: 'tempo/magic-at-its-tempo.yaml' },
  { ruleset: 'stamina', file: 'stamina/reckless-attack.yaml' },
  // Conditions whose duration is the rules' own (cover until removed), Aim, Dodge, wind.
  { ruleset: 'stamina', file: 'stamina/orchard.yaml' },
];

/**
 * `WORKED_EXAMPLES=all` plays every scenario file of the six rulesets instead (a few minutes): what a
 * change to the page or to a ruleset's declarations must keep reachable.
 */
const WORKED =
  process.env.WORKED_EXAMPLES === 'all'
    ? [...new Set(CHOSEN.map((c) => c.ruleset))].flatMap((ruleset) =>
        readdirSync(join(repo, 'examples', ruleset))
          .filter((f) => f.endsWith('.yaml'))
          .map((f) => ({ ruleset, file: `${ruleset}/${f}` })),
      )
    : CHOSEN;

/** The parts of a state a replay must reproduce (ids and names of the encounter itself aside). */
function essence(state: object): unknown {
  const { combatants, roster, round, current, effects, agenda, status, now } = state as Record<
    string,
    unknown
  >;
  return { combatants, roster, round, current, effects, agenda, status, now };
}

type Command = { type: string; [key: string]: Json };
/** The server's answer to one command the page sent. */
type Answer = { ok: boolean; seq?: number | undefined; message?: string | undefined };

const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A field's label as the page writes it: its label, its unit, and a hidden star when it is required. */
const labelled = (p: Param) => new RegExp(`^${literal(`${p.label}${p.unit ? ` (${p.unit})` : ''}`)}( \\*)?$`);

/** The GM's page of one encounter, and what the server has confirmed of it. */
class GmPage {
  /** The highest change the page's live socket has received. */
  seq = 0;
  /** Answers to the commands the page sent over its socket (`result` messages), not yet taken. */
  private results: Answer[] = [];
  private waiting: ((a: Answer) => void) | undefined;
  constructor(
    readonly page: Page,
    readonly ruleset: string,
  ) {
    page.on('websocket', (ws) =>
      ws.on('framereceived', (frame) => {
        try {
          const msg = JSON.parse(String(frame.payload)) as {
            type?: string;
            seq?: number;
            ok?: boolean;
            error?: { message: string };
          };
          if ((msg.type === 'change' || msg.type === 'hello') && typeof msg.seq === 'number')
            this.seq = Math.max(this.seq, msg.seq);
          if (msg.type === 'result')
            this.answer({ ok: msg.ok === true, seq: msg.seq, message: msg.error?.message });
        } catch {
          // Not a message of ours.
        }
      }),
    );
    // While the socket is not open the page sends by HTTP: its answer counts the same.
    page.on('response', (r) => {
      if (!r.url().endsWith('/commands') || r.request().method() !== 'POST') return;
      void r
        .json()
        .then((body: { seq?: number; error?: { message: string } }) =>
          this.answer({ ok: r.ok(), seq: body.seq, message: body.error?.message }),
        )
        .catch(() => {});
    });
  }

  private answer(a: Answer): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    if (waiting) waiting(a);
    else this.results.push(a);
  }

  /** The next answer to a command the page sent, over its socket or by HTTP. */
  private nextAnswer(timeout: number): Promise<Answer> {
    const ready = this.results.shift();
    if (ready) return Promise.resolve(ready);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting = undefined;
        reject(new Error(`No answer to the command within ${timeout} ms.`));
      }, timeout);
      this.waiting = (a) => {
        clearTimeout(timer);
        resolve(a);
      };
    });
  }
  id = '';
  token = '';

  /** The state as the server holds it: only read, to know the labels and choices the page shows. */
  async state(): Promise<EncounterState> {
    const r = await fetch(`${env.server.url}/api/encounters/${encodeURIComponent(this.id)}`, {
      headers: { authorization: `Bearer ${this.token}` },
    });
    return ((await r.json()) as { state: EncounterState }).state;
  }

  status = async () => (await this.page.getByTestId('status').textContent()) ?? '';

  /**
   * Does `ui` (which sends one command from the page) and waits for the server's answer and, when it was
   * taken, for the page to show the new state; when it was refused, for the page to say the server's
   * reason. Resolves to the status line.
   */
  async sends(ui: () => Promise<void>): Promise<{ ok: boolean; said: string }> {
    this.results = [];
    await ui();
    const r = await this.nextAnswer(15_000);
    if (r.ok) {
      const seq = r.seq ?? 0;
      await expect.poll(() => this.seq, { timeout: 10_000 }).toBeGreaterThanOrEqual(seq);
      await expect.poll(this.status).toMatch(/^Done/);
    } else {
      await expect.poll(this.status).toBe(`Refused: ${r.message ?? ''}`);
    }
    return { ok: r.ok, said: await this.status() };
  }

  card(id: string): Locator {
    return this.page.locator(`li.card[data-combatant="${id}"]`);
  }

  /** Selects a combatant by its card, as a GM clicks its name. */
  async select(id: string, state: EncounterState): Promise<void> {
    const name = state.combatants[id]?.name ?? id;
    await this.card(id).locator('button.card-name').click();
    await expect.poll(() => this.page.getByTestId('acting-for').textContent()).toContain(name);
  }
}

/** The control must be on the page: a command with no way to be sent fails here, saying which. */
async function present(control: Locator, what: string): Promise<Locator> {
  if ((await control.count()) === 0) throw new Error(`The GM's page has no ${what}.`);
  return control;
}

/** Fills the fields a command gives, each by the label its parameter declares. */
async function fill(
  scope: Locator,
  params: readonly Param[],
  fields: Record<string, Json>,
  state: EncounterState,
  what: string,
): Promise<void> {
  for (const [name, value] of Object.entries(fields)) {
    const p = params.find((x) => x.name === name);
    if (!p) throw new Error(`${what}: the page has no field for "${name}" (given ${JSON.stringify(value)}).`);
    await fillOne(scope, p, value, state, what);
  }
}

const nameOf = (state: EncounterState, id: string) => state.combatants[id]?.name ?? id;

async function fillOne(scope: Locator, p: Param, value: Json, state: EncounterState, what: string) {
  const fieldset = () =>
    scope.locator('fieldset').filter({
      has: scope.page().locator('legend', { hasText: new RegExp(`^${literal(p.label)}$`) }),
    });
  switch (p.type) {
    case 'boolean':
      await scope.getByLabel(labelled(p)).setChecked(value === true);
      return;
    case 'choice':
    case 'combatant':
      await scope.getByLabel(labelled(p)).selectOption(String(value));
      return;
    case 'group': {
      if (!value || typeof value !== 'object' || Array.isArray(value))
        throw new Error(`${what}: "${p.name}" is not a list of values by name.`);
      await fill(fieldset().first(), p.fields ?? [], value, state, what);
      return;
    }
    case 'combatants': {
      const ids = Array.isArray(value) ? value.map(String) : [];
      for (const o of p.options ?? [])
        await fieldset()
          .first()
          .getByLabel(o.label, { exact: true })
          .setChecked(ids.includes(String(o.value)));
      return;
    }
    case 'per-combatant': {
      if (!value || typeof value !== 'object' || Array.isArray(value))
        throw new Error(`${what}: "${p.name}" is not a list of values by name.`);
      for (const [id, v] of Object.entries(value)) {
        const field = fieldset().first().getByLabel(nameOf(state, id), { exact: true });
        if (p.of?.type === 'choice') await field.selectOption(String(v));
        else await field.fill(String(v));
      }
      return;
    }
    case 'duration':
      await fillDuration(fieldset().first(), value, state);
      return;
    case 'json':
      await scope.getByLabel(labelled(p)).fill(JSON.stringify(value));
      return;
    default:
      await scope.getByLabel(labelled(p)).fill(String(value));
  }
}

/** The duration picker: until the start or end of someone's Nth turn, N rounds, N clock units, or until removed. */
async function fillDuration(scope: Locator, value: Json, state: EncounterState): Promise<void> {
  const d = value as { kind: string; combatant?: string; turns?: number; round?: number; amount?: number };
  const kind = scope.getByLabel('Lasts', { exact: true });
  switch (d.kind) {
    case 'until-turn-start':
    case 'until-turn-end':
      await kind.selectOption(d.kind === 'until-turn-start' ? 'turn-start' : 'turn-end');
      await scope.getByLabel('Turn', { exact: true }).fill(String(d.turns ?? 1));
      await scope.getByLabel('of', { exact: true }).selectOption(String(d.combatant));
      return;
    case 'until-round-end':
      await kind.selectOption('rounds');
      await scope
        .getByLabel('Rounds', { exact: true })
        .fill(String((d.round ?? state.round) - state.round + 1));
      return;
    case 'for':
      await kind.selectOption('units');
      await scope.locator('input[type=number]').fill(String(d.amount));
      return;
    case 'indefinite':
      await kind.selectOption('indefinite');
      return;
    default:
      throw new Error(`A duration "${d.kind}" has no place in the duration picker.`);
  }
}

/** Sends one scenario command from the page, as a GM would; resolves to whether the server took it. */
async function play(gm: GmPage, cmd: Command): Promise<{ ok: boolean; said: string }> {
  const { page } = gm;
  const state = await gm.state();
  const rs = rulesets[gm.ruleset]!;
  const { type, ...fields } = cmd;
  const body = page.locator('body');
  const only = (...keys: string[]) => Object.keys(fields).every((k) => keys.includes(k));

  // The palette: an action of the actor's catalog, when a click sends this command (the ruleset's command
  // for the action, `act` by default: the action's id, a reaction's name…), its fields from the form.
  if (typeof fields.actor === 'string') {
    const who = fields.actor;
    const la = legalActions(state, who, rulesets).find((l) => {
      const base = actionCommandOf(rs.present, state, who, l.action);
      const own = new Set((l.params ?? []).map((p) => p.name));
      return (
        base.type === type &&
        Object.entries(base).every(([k, v]) => own.has(k) || JSON.stringify(cmd[k]) === JSON.stringify(v))
      );
    });
    if (la) return palette(gm, state, la, { type, ...fields });
  }
  // A ruleset panel of the actor with this command (tempo's planned action, taken on the turn).
  if (typeof fields.actor === 'string') {
    const c = state.combatants[fields.actor];
    const panel = c
      ? (rs.present?.panels?.(state, c) ?? []).find((p) => (p.act ? 'act' : p.command) === type)
      : undefined;
    if (panel) {
      await gm.select(fields.actor, state);
      const region = await present(
        page.getByRole('region', { name: panel.title }),
        `"${panel.title}" panel for ${nameOf(state, fields.actor)}`,
      );
      // The panel's form: one of the ruleset's command forms, or its `act` command.
      const all =
        commandForms(rs).find((f) => f.type === type)?.params ??
        paramsOfSchema(rs.commands[type]!).filter((p) => p.name !== 'actor');
      const { actor: _a, ...rest } = fields;
      const given = Object.fromEntries(
        Object.entries(rest).filter(([k]) => !panel.fixed || !Object.hasOwn(panel.fixed, k)),
      );
      const params = resolveParams(state, fields.actor, all, catalogOf(state), rs.present);
      await fill(region, params, given, state, `${type} in "${panel.title}"`);
      return gm.sends(() => region.locator('button[type=submit]').click());
    }
  }
  switch (type) {
    case 'start':
      if (only()) return gm.sends(() => body.press('i'));
      break;
    case 'next':
      if (only()) return gm.sends(() => body.press('n'));
      break;
    case 'undo':
      return gm.sends(() => body.press('u'));
    case 'redo':
      return gm.sends(() => body.press('r'));
    case 'end':
      // The page asks first (one click must not end a fight): the GM confirms.
      page.once('dialog', (d) => void d.accept());
      return gm.sends(async () =>
        (
          await present(page.getByRole('button', { name: 'End the fight' }), 'button to end the fight')
        ).click(),
      );
    case 'damage':
    case 'heal':
    case 'set-hp': {
      const id = String(fields.combatant);
      const typed =
        type === 'damage'
          ? `-${fields.amount}`
          : type === 'heal'
            ? `+${fields.amount}`
            : fields.current !== undefined && only('combatant', 'current')
              ? String(fields.current)
              : fields.temp !== undefined && only('combatant', 'temp')
                ? `t${fields.temp}`
                : null;
      if (typed === null) break;
      await gm
        .card(id)
        .getByRole('button', { name: /^HP of / })
        .click();
      await page.keyboard.type(typed);
      return gm.sends(() => page.keyboard.press('Enter'));
    }
    case 'defeat':
    case 'revive': {
      await gm.select(String(fields.combatant), state);
      const tools = page.locator('section.gm-tools');
      return gm.sends(() =>
        tools.getByRole('button', { name: type === 'defeat' ? 'Defeat' : 'Revive' }).click(),
      );
    }
    case 'add-effect': {
      if (!only('target', 'name', 'duration', 'source')) break;
      await gm.select(String(fields.target), state);
      const form = page.getByRole('form', { name: /^Add a condition to / });
      await form.getByLabel('Condition', { exact: true }).fill(String(fields.name));
      await fillDuration(form, fields.duration!, state);
      if (fields.source !== undefined)
        await (
          await present(form.getByLabel('Caused by', { exact: true }), 'field for what caused a condition')
        ).selectOption(String(fields.source));
      return gm.sends(() => form.getByRole('button', { name: 'Add condition' }).click());
    }
    case 'add-combatant':
      return addCombatant(gm, state, fields.combatant as Record<string, Json>);
    case 'set-options': {
      const options = page.locator('details.options');
      await (await present(options.locator('summary'), 'options to change')).click();
      const form = options.getByRole('form', { name: 'Options' });
      await fill(
        form,
        paramsOfSchema(rs.optionsSchema),
        fields.options as Record<string, Json>,
        state,
        'Options',
      );
      return gm.sends(() => form.getByRole('button', { name: 'Change options' }).click());
    }
  }
  // The ruleset's own commands, from "Other commands".
  const form = commandForms(rs).find((f) => f.type === type);
  if (!form) throw new Error(`The page has no way to send ${JSON.stringify(cmd)}.`);
  const { actor, ...rest } = fields;
  if (typeof actor === 'string') await gm.select(actor, state);
  const other = page.getByRole('form', { name: 'Other commands' });
  const pick = other.getByLabel('Command', { exact: true });
  await present(
    pick.locator('option', { hasText: new RegExp(`^${literal(form.label)}$`) }),
    `"${form.label}" form`,
  );
  await pick.selectOption({ label: form.label });
  const params = resolveParams(
    state,
    typeof actor === 'string' ? actor : '',
    form.params,
    catalogOf(state),
    rs.present,
  );
  await fill(other, params, rest, state, `${form.label}`);
  return gm.sends(() => other.locator('button[type=submit]').click());
}

function catalogOf(state: EncounterState) {
  const rs = rulesets[state.ruleset]!;
  return [...rs.catalog(state), ...state.customActions];
}

/** An action from the palette: its target from the palette's list, its form for whatever else it takes. */
async function palette(
  gm: GmPage,
  state: EncounterState,
  la: LegalAction,
  cmd: Command,
): Promise<{ ok: boolean; said: string }> {
  const { page } = gm;
  const actor = String(cmd.actor);
  const rs = rulesets[state.ruleset]!;
  // What the click itself sends (type, actor, action…) is not entered.
  const base = actionCommandOf(rs.present, state, actor, la.action);
  const params = la.params ?? [];
  const own = new Set(params.map((p) => p.name));
  const fields = Object.fromEntries(
    Object.entries(cmd).filter(([k]) => own.has(k) || !Object.hasOwn(base, k)),
  );
  await gm.select(actor, state);
  const section = page.getByRole('region', { name: `Actions of ${nameOf(state, actor)}` });
  const given: Record<string, Json> = {};
  // The palette's target goes with a click (an action that declares no parameters still takes it); it is
  // the actor's own, kept from an earlier click, so "no target" when the command names none.
  const takesTarget = params.length === 0 || own.has('target');
  const target = section.locator('.panel-head').getByLabel('Target', { exact: true });
  await target.selectOption(typeof fields.target === 'string' && takesTarget ? fields.target : '');
  if (typeof fields.target === 'string' && takesTarget) given.target = fields.target;
  const rest = Object.fromEntries(Object.entries(fields).filter(([k]) => !Object.hasOwn(given, k)));
  const button = section.locator(`button.action[data-action="${la.action.id}"]`);
  if (!la.enabled) {
    // Folded under "Not available now" (unless an earlier step unfolded it).
    const fold = section.getByTestId('unavailable-actions');
    if (!(await fold.evaluate((d) => (d as HTMLDetailsElement).open))) await fold.locator('summary').click();
  }
  const details = section.getByRole('button', { name: `${la.action.name} with details` });
  const missing = la.enabled && missingParams(params, given).length > 0;
  if (Object.keys(rest).length === 0 && !missing) return gm.sends(() => button.click());
  if (!params.length)
    throw new Error(`${la.action.name} takes no fields on the page: ${JSON.stringify(rest)}.`);
  if (!la.enabled && (await details.count()) === 0) {
    // Not available now and it needs a field: the page sends it as it is, and the answer is why.
    return gm.sends(() => button.click());
  }
  if (missing) await button.click();
  else await details.click();
  const form = section.getByRole('form', { name: `${la.action.name} for ${nameOf(state, actor)}` });
  await fill(form, params, rest, state, la.action.name);
  return gm.sends(() => form.locator('button[type=submit]').click());
}

/** A late arrival, from the add form: name, side, HP, group, hidden, notes and the ruleset's stats. */
async function addCombatant(
  gm: GmPage,
  state: EncounterState,
  c: Record<string, Json>,
): Promise<{ ok: boolean; said: string }> {
  const add = gm.page.getByRole('region', { name: 'Add combatants' });
  const name = String(c.name);
  // The page names a new combatant's id after its name: the scenario must have done the same.
  expect(c.id ?? name.toLowerCase()).toBe(name.toLowerCase().replace(/[^a-z0-9]+/g, '-'));
  await add.getByLabel('Name', { exact: true }).fill(name);
  await add.getByLabel('Side').selectOption(String(c.side ?? 'npc'));
  if (typeof c.hp === 'number') await add.getByLabel('HP', { exact: true }).fill(String(c.hp));
  await add.getByLabel('How many').fill('1');
  if (typeof c.group === 'string') await add.getByLabel('NPC group').fill(c.group);
  if (c.hidden === true) await add.getByLabel('Hidden from players').check();
  if (typeof c.notes === 'string') await add.getByLabel('GM notes').fill(c.notes);
  const stats = (c.stats ?? {}) as Record<string, Json>;
  const rs = rulesets[state.ruleset]!;
  await fill(add.locator('fieldset.stats'), paramsOfSchema(rs.statsSchema), stats, state, `stats of ${name}`);
  return gm.sends(() => add.getByRole('button', { name: 'Add', exact: true }).click());
}

describe('each ruleset’s worked example, played on the GM’s page', () => {
  for (const { ruleset, file } of WORKED) {
    it(`${ruleset}: ${file} ends where \`roundkeeper run\` does`, async () => {
      const path = join(repo, 'examples', file);
      const scenario = parseScenario(parse(readFileSync(path, 'utf8')) as unknown);
      if (isRejection(scenario)) throw new Error(scenario.message);
      expect(scenario.ruleset).toBe(ruleset);

      // What the CLI reaches, replaying the whole file.
      const run = JSON.parse(
        execFileSync(process.execPath, [join(repo, 'packages/cli/dist/main.js'), 'run', path, '--json'], {
          encoding: 'utf8',
        }),
      ) as { ok: boolean; failures: string[]; state: Record<string, unknown> };
      expect(run.failures).toEqual([]);

      // The setup alone (combatants, options, seed and dice), imported from a file on the home page.
      const dir = mkdtempSync(join(tmpdir(), 'roundkeeper-worked-'));
      const setup = join(dir, `${ruleset}-setup.yaml`);
      const { expect: _final, ...head } = scenario;
      writeFileSync(setup, stringify({ ...head, schema: 2, commands: [] }));
      const ctx = await env.browser.newContext({ viewport: { width: 1280, height: 720 } });
      // A control that is not there fails in seconds, not at the default half minute.
      ctx.setDefaultTimeout(5_000);
      const page = await ctx.newPage();
      const gm = new GmPage(page, ruleset);
      try {
        await page.goto(`${env.server.url}/`);
        await page
          .getByRole('region', { name: 'New encounter' })
          .getByLabel('Import scenario (JSON or YAML)')
          .setInputFiles(setup);
        await page.waitForURL(/\/e\/[^/?]+\?token=/);
        await drawn(page);
        const url = new URL(page.url());
        gm.id = decodeURIComponent(url.pathname.split('/')[2]!);
        gm.token = url.searchParams.get('token')!;
        await page.getByTestId('clock').waitFor();

        for (const [i, step] of scenario.commands.entries()) {
          const cmd = step.command as Command;
          const where = `step ${i + 1} (${JSON.stringify(cmd)})`;
          const r = await play(gm, cmd);
          if (step.reject) {
            expect(r.ok, `${where} should be refused: ${r.said}`).toBe(false);
            // The page shows the rules' own refusal, the one the scenario file expects.
            for (const text of step.expectLog ?? []) expect(r.said, where).toContain(text);
          } else {
            expect(r.ok, `${where} was refused: ${r.said}`).toBe(true);
            // What the step says in the log, the page's log says too.
            for (const text of step.expectLog ?? [])
              await expect
                .poll(() => page.getByTestId('log').textContent(), { message: where })
                .toContain(text);
          }
        }

        expect(essence(await gm.state())).toEqual(essence(run.state));
      } finally {
        await ctx.close();
        rmSync(dir, { recursive: true, force: true });
      }
    }, 90_000);
  }
});
