import { readdirSync, readFileSync } from 'node:fs';
import {
  commandForms,
  EncounterLog,
  type EncounterView,
  isRejection,
  type LogEntry,
  seededDice,
  view,
} from '@roundkeeper/engine';
import { rulesets } from '@roundkeeper/rulesets';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countOf, MOST_AT_ONCE } from './forms/add.js';
import { durationOf, initialValues, missingParams, payloadOf } from './forms/form.js';
import {
  expandCombatants,
  headline,
  hpEdit,
  isolated,
  otherForms,
  roundOrder,
  splitNames,
  turnOrder,
} from './model.js';
import { backoff, mergeEntries } from './store/merge.js';

describe('web model helpers', () => {
  it('isolates a name inside a line as <bdi> would, and a stray isolate mark in it cannot close that early', () => {
    expect(isolated('Orc')).toBe('\u2068Orc\u2069');
    const hostile = 'Evil\u2069\u202Eeman';
    const line = `Next: ${isolated(hostile)}, ${isolated('Ana')}`;
    // One opening and one closing mark per name: the override stays inside its own isolate.
    expect([...line].filter((c) => c === '\u2068')).toHaveLength(2);
    expect([...line].filter((c) => c === '\u2069')).toHaveLength(2);
    expect(line).toBe('Next: \u2068Evil\u202Eeman\u2069, \u2068Ana\u2069');
  });

  it('adds several combatants at once as an NPC group with unique ids', () => {
    const cmds = expandCombatants({ name: 'Goblin', side: 'npc', hp: 7, stats: {} }, 3, ['goblin-1']);
    expect(cmds.map((c) => (c.combatant as { id: string }).id)).toEqual([
      'goblin-1-2',
      'goblin-2',
      'goblin-3',
    ]);
    expect(cmds.map((c) => (c.combatant as { name: string }).name)).toEqual([
      'Goblin 1',
      'Goblin 2',
      'Goblin 3',
    ]);
    expect((cmds[0]!.combatant as { group: string }).group).toBe('Goblin');
  });

  it("adds exactly as many as asked: the limit is the form's, said in words, not a silent cut", () => {
    const goblin = { name: 'Goblin', side: 'npc' as const, hp: 7, stats: {} };
    // Before, 60 became 50 without a word; the form refuses 60 in words, and what it lets through is kept.
    expect(countOf(String(MOST_AT_ONCE + 10))).toBe(`How many can be at most ${MOST_AT_ONCE}.`);
    expect(expandCombatants(goblin, MOST_AT_ONCE, [])).toHaveLength(MOST_AT_ONCE);
    expect(expandCombatants(goblin, MOST_AT_ONCE + 10, [])).toHaveLength(MOST_AT_ONCE + 10);
    for (const n of [0, -3, 2.5])
      expect(() => expandCombatants(goblin, n, [])).toThrow(/whole number of at least 1/);
  });

  it('says where a fight ended: the round, or the clock where it has no rounds', () => {
    const ended = (ruleset: string) => {
      const enc = EncounterLog.create({ id: 'h', name: 'H', ruleset, dice: seededDice(1) }, rulesets);
      if (isRejection(enc)) throw new Error(enc.message);
      for (const type of ['add-combatant', 'start', 'end']) {
        const cmd = type === 'add-combatant' ? { type, combatant: { name: 'Ana', side: 'pc' } } : { type };
        if (isRejection(enc.execute(cmd))) throw new Error(type);
      }
      return headline(view(enc.state, { role: 'gm' }, rulesets[ruleset]!)).clock;
    };
    expect(ended('classic')).toBe('Ended in round 1');
    expect(ended('tick')).toMatch(/^Ended at Tick [1-6]$/);
  });

  it('between turns, says what the phase asks of the table under the clock, without saying the moment twice', () => {
    const between = (ruleset: string, commands: Record<string, unknown>[]) => {
      const enc = EncounterLog.create({ id: 'h', name: 'H', ruleset, dice: seededDice(1) }, rulesets);
      if (isRejection(enc)) throw new Error(enc.message);
      // Speed is a tempo stat; tick has none such (a stat its ruleset lacks is refused).
      const speed = (n: number) => (ruleset === 'tempo' ? { speed: n } : {});
      for (const cmd of [
        { type: 'add-combatant', combatant: { id: 'ana', name: 'Ana', side: 'pc', stats: speed(6) } },
        { type: 'add-combatant', combatant: { id: 'bo', name: 'Bo', side: 'pc', stats: speed(5) } },
        ...commands,
      ])
        if (isRejection(enc.execute(cmd as never))) throw new Error(String(cmd.type));
      const h = headline(view(enc.state, { role: 'gm' }, rulesets[ruleset]!));
      return [h.clock, h.actor];
    };
    expect(between('tempo', [{ type: 'start' }])).toEqual([
      'Round 1 · planning',
      'Each character chooses 2 actions in secret',
    ]);
    const [clock, actor] = between('tick', [{ type: 'start' }, { type: 'next' }, { type: 'next' }]);
    expect(clock).toMatch(/^Tick \d+$/);
    expect(actor).toBe('Everyone is waiting: press Act now for whoever steps in');
  });

  it('merges log entries by seq without duplicates', () => {
    const e = (seq: number) => ({ seq, group: 1, event: { type: 'x' } });
    expect(mergeEntries([e(1), e(2)], [e(2), e(3)]).map((x) => x.seq)).toEqual([1, 2, 3]);
    expect(backoff(0, () => 1)).toBe(300);
    expect(backoff(10, () => 1)).toBe(5000);
  });

  it('builds command forms from the rulesets’ declared parameters, in words', () => {
    const declare = commandForms(rulesets.opend6!).find((f) => f.type === 'declare')!;
    expect(declare.forActor).toBe(true);
    expect(declare.params.map((p) => p.name)).toEqual(['actions']);
    const raw = initialValues(declare.params, { round: 1, actor: 'ana' });
    expect(payloadOf(declare.params, { ...raw, actions: '2' }, { round: 1 })).toEqual({ actions: 2 });
    // A refusal names the field by its label, not its name.
    const label = declare.params[0]!.label;
    expect(payloadOf(declare.params, { actions: 'x' }, { round: 1 })).toBe(`${label} must be a number.`);
    // Every other command's fields have a form: no raw JSON anywhere.
    for (const rs of Object.values(rulesets))
      for (const f of otherForms(rs))
        for (const p of f.params) expect(`${rs.id}.${f.type}.${p.name}:${p.type}`).not.toMatch(/:json$/);
  });

  it('offers start and next as forms where they take fields, after the other commands', () => {
    // Initiative rolled at the table (stamina), who acts first (opend6): only a form can send them.
    const stamina = otherForms(rulesets.stamina!).map((f) => f.type);
    expect(stamina.slice(-2)).toEqual(['start', 'next']);
    expect(
      otherForms(rulesets.opend6!)
        .find((f) => f.type === 'start')
        ?.params.map((p) => p.name),
    ).toContain('first');
    // Without fields they stay the buttons only; a player's page never offers them.
    expect(otherForms(rulesets.tempo!).map((f) => f.type)).not.toContain('start');
    for (const rs of Object.values(rulesets))
      expect(otherForms(rs, true).map((f) => f.type)).not.toContain('start');
  });

  it('words Next for a player’s own turn as the rules declare it: tick’s holds, the others’ end the turn', () => {
    const own = (id: string) => commandForms(rulesets[id]!).find((f) => f.type === 'next')?.own;
    expect(own('tick')).toEqual({
      label: 'Hold (wait)',
      help: 'Leave the timeline without spending ticks; step in later with Act now.',
    });
    for (const id of Object.keys(rulesets)) if (id !== 'tick') expect(own(id), id).toBeUndefined();
  });

  it('says a required field is missing; a click opens the form only then', () => {
    const ready = commandForms(rulesets.classic!).find((f) => f.type === 'ready')!;
    expect(missingParams(ready.params, {}).map((p) => p.name)).toEqual(['action', 'trigger']);
    expect(payloadOf(ready.params, { action: 'attack' }, { round: 1 })).toMatch(/^Fill in /);
  });

  it('offers every duration the engine supports', () => {
    const ctx = { round: 3, actor: 'ana' };
    expect(durationOf({ 'd.kind': 'rounds', 'd.count': '2' }, 'd', ctx)).toEqual({
      kind: 'until-round-end',
      round: 4,
    });
    expect(durationOf({ 'd.kind': 'units', 'd.count': '10' }, 'd', ctx)).toEqual({ kind: 'for', amount: 10 });
    expect(durationOf({ 'd.kind': 'turn-end', 'd.count': '2', 'd.combatant': 'orc' }, 'd', ctx)).toEqual({
      kind: 'until-turn-end',
      combatant: 'orc',
      turns: 2,
    });
    expect(durationOf({ 'd.kind': 'indefinite' }, 'd', ctx)).toEqual({ kind: 'indefinite' });
    expect(durationOf({ 'd.kind': 'turn-start', 'd.count': '1' }, 'd', ctx)).toMatch(/whose turn/);
  });

  it('leaves an optional duration to the rules until the GM picks one', () => {
    // Stamina's conditions last until removed unless a duration is given: the form sends none by itself.
    const condition = commandForms(rulesets.stamina!).find((f) => f.type === 'condition')!;
    const ctx = { round: 1, actor: 'ana' };
    const raw = { ...initialValues(condition.params, ctx), target: 'bren', condition: 'cover', value: '4' };
    expect(payloadOf(condition.params, raw, ctx)).toEqual({ target: 'bren', condition: 'cover', value: 4 });
    expect(
      payloadOf(condition.params, { ...raw, 'duration.kind': 'rounds', 'duration.count': '2' }, ctx),
    ).toEqual({
      target: 'bren',
      condition: 'cover',
      value: 4,
      duration: { kind: 'until-round-end', round: 2 },
    });
    // A required one starts at the actor's next turn.
    const required = [{ name: 'd', label: 'Lasts', type: 'duration' as const, required: true }];
    expect(payloadOf(required, initialValues(required, ctx), ctx)).toEqual({
      d: { kind: 'until-turn-start', combatant: 'ana', turns: 1 },
    });
  });

  it('reads an HP change typed on the HP value', () => {
    expect(hpEdit('-7')).toEqual({ kind: 'damage', amount: 7 });
    expect(hpEdit('+5')).toEqual({ kind: 'heal', amount: 5 });
    expect(hpEdit(' 12 ')).toEqual({ kind: 'set', current: 12 });
    expect(hpEdit('t4')).toEqual({ kind: 'temp', temp: 4 });
    expect(hpEdit('-0')).toBeNull();
    expect(hpEdit('')).toBeNull();
    expect(hpEdit('seven')).toBeNull();
  });

  it('names no ruleset in the app: what differs comes from the rulesets’ declarations', () => {
    const dir = new URL('.', import.meta.url);
    const ids = Object.keys(rulesets);
    expect(ids.length).toBeGreaterThan(5);
    // Every folder of src/ (the store, the screen model, the pages and their parts).
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' });
    expect(files.some((f) => f.includes('/'))).toBe(true);
    for (const file of files) {
      if (!/\.tsx?$/.test(file) || file.endsWith('.test.ts')) continue;
      const text = readFileSync(new URL(file, dir), 'utf8');
      for (const id of ids)
        expect(text.includes(`'${id}'`) || text.includes(`"${id}"`), `${file} names ${id}`).toBe(false);
    }
  });

  it('moves a combatant up or down the order where the rules let the GM set it', () => {
    for (const ruleset of ['classic', 'stamina']) {
      const enc = EncounterLog.create(
        { id: 't', name: 'T', ruleset, options: {}, dice: seededDice(1) },
        rulesets,
      );
      if (isRejection(enc)) throw new Error(enc.message);
      for (const id of ['ana', 'bo', 'cy'])
        enc.execute({ type: 'add-combatant', combatant: { id, name: id, side: 'pc', hp: 9, stats: {} } });
      enc.execute({ type: 'start', initiative: { ana: 15, bo: 10, cy: 5 } });
      const present = rulesets[ruleset]!.present!;
      const c = (id: string) => enc.state.combatants[id]!;
      expect(present.reorder!(enc.state, c('ana'), 'up')).toBeNull();
      expect(present.reorder!(enc.state, c('cy'), 'down')).toBeNull();
      const up = present.reorder!(enc.state, c('cy'), 'up')!;
      expect(up).toEqual({ type: 'set-initiative', actor: 'cy', value: 11 });
      expect(isRejection(enc.execute(up))).toBe(false);
      // Cy now comes before Bo.
      const keyOf = (id: string) => (c(id).cs as { key: number[] }).key;
      expect(keyOf('cy')[0]!).toBeLessThan(keyOf('bo')[0]!);
      // Dropped on another's place: past them in one move, one more than theirs (one less going down).
      expect(present.reorder!(enc.state, c('bo'), 'up', c('ana'))).toEqual({
        type: 'set-initiative',
        actor: 'bo',
        value: 16,
      });
      expect(present.reorder!(enc.state, c('ana'), 'down', c('bo'))).toEqual({
        type: 'set-initiative',
        actor: 'ana',
        value: 9,
      });
      // Past someone on the other side is not a move that way.
      expect(present.reorder!(enc.state, c('bo'), 'down', c('ana'))).toBeNull();
      expect(present.reorder!(enc.state, c('ana'), 'up', c('ana'))).toBeNull();
    }
    // A ruleset whose order the GM does not set offers no move.
    expect(rulesets['tara-corax']!.present?.reorder).toBeUndefined();
  });

  it('cuts a log line where names stand, longest first, so each can be isolated', () => {
    const evil = 'Evil\u202Eeman';
    expect(splitNames(`${evil} hits Goblin 10 and Goblin 1.`, ['Goblin 1', 'Goblin 10', evil, ''])).toEqual([
      { text: evil, name: true },
      { text: ' hits ', name: false },
      { text: 'Goblin 10', name: true },
      { text: ' and ', name: false },
      { text: 'Goblin 1', name: true },
      { text: '.', name: false },
    ]);
    expect(splitNames('No names here.', [])).toEqual([{ text: 'No names here.', name: false }]);
  });

  it('cuts a line as reading it from the left does, at each place the longest name there', () => {
    // The reference: at each position, the longest name that starts there, else one character of text.
    const reference = (text: string, names: readonly string[]) => {
      const sorted = [...new Set(names.filter((n) => n.length > 0))].sort((a, b) => b.length - a.length);
      const out: { text: string; name: boolean }[] = [];
      let plain = '';
      for (let i = 0; i < text.length; ) {
        const hit = sorted.find((n) => text.startsWith(n, i));
        if (hit) {
          if (plain) out.push({ text: plain, name: false });
          plain = '';
          out.push({ text: hit, name: true });
          i += hit.length;
        } else plain += text[i++];
      }
      if (plain) out.push({ text: plain, name: false });
      return out;
    };
    // Few letters and regular-expression characters, so names overlap, nest and repeat.
    const piece = fc.constantFrom('a', 'b', ' ', '*', '(', '\\', '\u202e');
    const word = fc.array(piece, { minLength: 1, maxLength: 3 }).map((cs) => cs.join(''));
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 30 }).map((cs) => cs.join('')),
        fc.array(word, { maxLength: 5 }),
        (text, names) => {
          expect(splitNames(text, names)).toEqual(reference(text, names));
          expect(splitNames(text, names)).toEqual(reference(text, names));
        },
      ),
      { numRuns: 500 },
    );
  });

  it("keeps the round's order still: who had a turn this round, in the log's order, less what was undone", () => {
    // The order read the whole log forward for its undone groups: the reference it must still give.
    const reference = (v: EncounterView, entries: readonly LogEntry[]) => {
      const undone = new Set<number>();
      for (const e of entries) {
        if (e.event.type === 'undo' && typeof e.event.group === 'number') undone.add(e.event.group);
        else if (e.event.type === 'redo' && typeof e.event.group === 'number') undone.delete(e.event.group);
      }
      const acted: string[] = [];
      for (let i = entries.length - 1; i >= 0; i--) {
        const e = entries[i]!;
        if (undone.has(e.group)) continue;
        if (e.event.type === 'round/started') break;
        if (e.event.type === 'turn/started') acted.push(e.event.combatant as string);
      }
      const ids = [...acted.reverse().filter((id) => id !== v.current), ...turnOrder(v)];
      return ids.filter((id, i) => ids.indexOf(id) === i);
    };
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('next', 'next', 'next', 'undo', 'redo', 'delay'), { maxLength: 60 }),
        (types) => {
          const enc = EncounterLog.create(
            { id: 'o', name: 'O', ruleset: 'classic', dice: seededDice(2) },
            rulesets,
          );
          if (isRejection(enc)) throw new Error(enc.message);
          for (const id of ['ana', 'bo', 'cy', 'dee'])
            enc.execute({ type: 'add-combatant', combatant: { id, name: id, side: 'pc', hp: 9, stats: {} } });
          enc.execute({ type: 'start', initiative: { ana: 15, bo: 10, cy: 5, dee: 1 } });
          for (const type of types) {
            enc.execute(type === 'delay' ? { type, actor: enc.state.current } : { type });
            const v = view(enc.state, { role: 'gm' }, rulesets.classic!);
            expect(roundOrder(v, enc.entries)).toEqual(reference(v, enc.entries));
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
