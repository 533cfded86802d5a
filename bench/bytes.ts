import { rulesets } from '@roundkeeper/rulesets';
import { Hub, MemoryStorage } from '@roundkeeper/server';
import type { Row } from './engine.js';

/**
 * Bytes per `change` message, per ruleset, in process (a `Hub` on memory storage: only the messages
 * count): an encounter of 12 combatants (4 PCs with a player link each, 8 NPCs), watched by the GM, the
 * table and the four players; `start`, then 500 `next`; every change after the start, for the five
 * viewers who are not the GM (2,500 per ruleset). The rulesets whose "next" moves the fight on alone —
 * tempo plans first, tick needs actions — are left out.
 */
const RULESETS = ['classic', 'six-second', 'opend6', 'stamina', 'tara-corax'];

async function sizes(ruleset: string): Promise<number[]> {
  const combatants = Array.from({ length: 12 }, (_, i) =>
    i < 4
      ? { id: `p${i + 1}`, name: `P${i + 1}`, side: 'pc' as const }
      : { id: `n${i - 3}`, name: `Orc ${i - 3}`, side: 'npc' as const, hp: 30 },
  );
  const hub = new Hub(new MemoryStorage(), rulesets);
  const c = await hub.create({ name: 'Bytes', ruleset, seed: 3, combatants });
  const id = c.record.id;
  const gm = await hub.link(c.tokens.gm, id);
  const out: number[][] = [];
  for (const token of [c.tokens.table, ...Object.values(c.tokens.players)]) {
    const link = await hub.link(token, id);
    const viewer =
      link.role === 'player' ? { role: 'player' as const, combatants: link.combatants } : { role: link.role };
    const mine: number[] = [];
    out.push(mine);
    await hub.subscribe(id, link, {
      viewer,
      send: (text) => {
        if (text.startsWith('{"type":"change"')) mine.push(Buffer.byteLength(text));
      },
      close: () => {},
    });
  }
  await hub.command(id, gm, { type: 'start' });
  for (let i = 0; i < 500; i++) await hub.command(id, gm, { type: 'next' });
  // Each viewer's first change is the start's (the whole order and the first round's schedule).
  return out.flatMap((s) => s.slice(1)).sort((a, b) => a - b);
}

export async function benchBytes(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const ruleset of RULESETS) {
    const s = await sizes(ruleset);
    const at = (p: number) => s[Math.min(s.length - 1, Math.floor((s.length * p) / 100))]!;
    const mean = s.reduce((a, b) => a + b, 0) / s.length;
    rows.push({
      name: `bytes per change, table and players, 12 combatants, "next" (${ruleset}): mean / median / p90 / max`,
      value: `${mean.toFixed(0)} / ${at(50)} / ${at(90)} / ${s.at(-1)} B`,
      target: '—',
      met: true,
    });
  }
  return rows;
}
