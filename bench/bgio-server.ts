import { createRequire } from 'node:module';

/**
 * boardgame.io 0.50's own server (Koa + socket.io, its in-memory storage, credentials and state-id
 * checks), run as a process of its own beside Roundkeeper's for the side-by-side benchmark
 * (bench/side.ts). The game keeps a combat tracker's state in the same shape of work as ours: twelve
 * combatants, and a move `next` that passes the turn to the next one (a round ends after the last).
 * `rkbench-delta` is the same game with boardgame.io's `deltaState` (patches instead of whole states).
 * Prints `listening on <port>` once it listens.
 */

interface Combatant {
  id: string;
  name: string;
  side: 'pc' | 'npc';
  initiative: number;
  hp: number;
  maxHp: number;
  conditions: string[];
}

interface Tracker {
  round: number;
  active: number;
  combatants: Combatant[];
}

interface GameDefinition {
  name: string;
  deltaState?: boolean;
  setup: () => Tracker;
  moves: Record<string, (context: { G: Tracker }) => void>;
}

interface BgioServer {
  run(options: { port: number }): Promise<{ appServer: { address(): { port: number } | string | null } }>;
}

const require = createRequire(import.meta.url);
// boardgame.io publishes CommonJS under a directory entry that ES module resolution refuses.
const { Server } = require('boardgame.io/server') as {
  Server: (o: { games: GameDefinition[] }) => BgioServer;
};

function setup(): Tracker {
  const combatants: Combatant[] = [];
  for (let i = 0; i < 12; i++) {
    const pc = i < 4;
    combatants.push({
      id: pc ? `p${i + 1}` : `n${i - 3}`,
      name: pc ? `P${i + 1}` : `Orc ${i - 3}`,
      side: pc ? 'pc' : 'npc',
      initiative: 20 - i,
      hp: 30,
      maxHp: 30,
      conditions: [],
    });
  }
  return { round: 1, active: 0, combatants };
}

const next = ({ G }: { G: Tracker }) => {
  G.active = (G.active + 1) % G.combatants.length;
  if (G.active === 0) G.round++;
};

const games: GameDefinition[] = [
  { name: 'rkbench', setup, moves: { next } },
  { name: 'rkbench-delta', deltaState: true, setup, moves: { next } },
];

const server = Server({ games });
const { appServer } = await server.run({ port: 0 });
const address = appServer.address();
process.stdout.write(`listening on ${typeof address === 'object' && address ? address.port : address}\n`);
