import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import {
  ARM,
  CHROMIUM,
  command,
  createEncounter,
  interaction,
  median,
  openPage,
  pageUrl,
  startServer,
} from './web.js';

/**
 * Where one change's time goes on a page (issue 29): `node bench/dist/web-profile.js <dist> [12|30]
 * [changes] [gm,table,player]`, where `<dist>` is the web app built unminified with source maps
 * (`npx vite build --minify false --sourcemap --outDir <dist>` in packages/web: React's and the app's
 * function names and files are what the split reads). Chromium's profiler (CDP `Profiler`, 100 µs) runs
 * around `changes` changes of each page, timed as `web.ts` times them; each sample of the socket message's
 * task is put in a phase by its stack — the store (message parsed, delta applied), the notification (the
 * selectors), React's render, React's commit, the passive effects run in the same task, the probe's forced
 * style and layout — and under the owner of its function's file (web/<folder>, engine, rulesets, a
 * package). Prints ms per change; the profiler slows the page, so the shares count more than the figures.
 */
interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const RENDER = new Set(['performUnitOfWork', 'workLoopSync', 'renderRootSync', 'renderRootConcurrent']);
const COMMIT = new Set(['commitRoot', 'commitRootImpl', 'flushMutationEffects', 'flushLayoutEffects']);
const PASSIVE = new Set(['flushPassiveEffects', 'flushPassiveEffectsImpl']);
const NOTIFY = new Set(['handleStoreChange', 'checkIfSnapshotChanged', 'emit']);

/** The owner of a frame's code: the app's folder, the engine, the rulesets, a package, or native code. */
function ownerOf(dist: string, maps: Map<string, SourceMap | null>, f: CallFrame): string {
  if (!f.url) return f.functionName.startsWith('(') ? f.functionName : 'native';
  const file = /\/assets\/([^/?]+\.js)/.exec(f.url)?.[1];
  let source = f.url;
  if (file) {
    let map = maps.get(file);
    if (map === undefined) {
      const at = join(dist, 'assets', `${file}.map`);
      map = existsSync(at) ? new SourceMap(JSON.parse(readFileSync(at, 'utf8'))) : null;
      maps.set(file, map);
    }
    const entry = map?.findEntry(f.lineNumber, f.columnNumber);
    if (entry && 'originalSource' in entry) source = entry.originalSource;
  }
  const web = /packages\/web\/src\/([^/]+)/.exec(source)?.[1];
  if (web) return `web/${web.replace(/\.tsx?$/, '')}`;
  if (source.includes('packages/engine/')) return 'engine';
  if (source.includes('packages/rulesets/')) return 'rulesets';
  return /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(source)?.[1] ?? source;
}

/** ms per change by phase, and by phase and owner, of the socket message's task and the probe. */
export function split(dist: string, profile: Profile, changes: number): string[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const maps = new Map<string, SourceMap | null>();
  const sampleOf = new Map<number, { phase: string; owner: string } | null>();
  const phases = new Map<string, number>();
  const owners = new Map<string, number>();
  const add = (m: Map<string, number>, k: string, dt: number) => m.set(k, (m.get(k) ?? 0) + dt);
  profile.samples.forEach((id, i) => {
    let at = sampleOf.get(id);
    if (at === undefined) {
      const stack: CallFrame[] = [];
      for (let n: number | undefined = id; n !== undefined; n = parent.get(n))
        stack.unshift(byId.get(n)!.callFrame);
      const names = stack.map((f) => f.functionName);
      let phase: string | null = null;
      if (names.includes('probeObserved')) phase = 'the probe: style and layout it forces';
      else if (names.includes('ws.onmessage')) {
        phase = 'store: message parsed, delta applied, log merged';
        for (const f of names) {
          if (RENDER.has(f)) phase = "React's render";
          else if (COMMIT.has(f)) phase = "React's commit";
          else if (PASSIVE.has(f)) phase = 'passive effects in the same task';
          else if (NOTIFY.has(f) && phase.startsWith('store')) phase = 'notification: listeners, selectors';
        }
      }
      at = phase ? { phase, owner: ownerOf(dist, maps, stack.at(-1)!) } : null;
      sampleOf.set(id, at);
    }
    if (!at) return;
    const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000 / changes;
    add(phases, at.phase, dt);
    add(owners, `${at.phase} | ${at.owner}`, dt);
  });
  const rows = (m: Map<string, number>, min: number) =>
    [...m]
      .filter(([, v]) => v >= min)
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `  ${v.toFixed(3)}  ${k}`);
  return ['by phase (ms per change):', ...rows(phases, 0), 'by phase and owner:', ...rows(owners, 0.01)];
}

export async function profileWeb(
  dist: string,
  size: 12 | 30,
  changes: number,
  pages: readonly ('gm' | 'table' | 'player')[],
): Promise<string[]> {
  const executablePath = CHROMIUM.find((p) => existsSync(p));
  if (!executablePath) throw new Error('Chromium is missing: apt-get install -y chromium');
  const dir = mkdtempSync(join(tmpdir(), 'rk-profile-'));
  const server = await startServer(dir, dist);
  const browser = await chromium.launch({
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  const out: string[] = [];
  try {
    const enc = await createEncounter(server.url, size);
    for (const kind of pages) {
      const viewport =
        kind === 'gm'
          ? { width: 1440, height: 1000 }
          : kind === 'table'
            ? { width: 1920, height: 1080 }
            : { width: 360, height: 740 };
      const token = kind === 'gm' ? enc.gm : kind === 'table' ? enc.table : enc.player;
      const { ctx, page } = await openPage(browser, pageUrl(server.url, enc.id, token), viewport);
      const once = async (): Promise<number> => {
        if (kind === 'gm') return (await interaction(page, 'n', 'clock')).render;
        await page.evaluate(`(${ARM})()`);
        await command(server.url, enc, { type: 'next' });
        return (await page.evaluate('window.__pending')) as number;
      };
      for (let i = 0; i < 10; i++) {
        await once();
        await page.waitForTimeout(30);
      }
      const cdp = await ctx.newCDPSession(page);
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
      await cdp.send('Profiler.start');
      const times: number[] = [];
      for (let i = 0; i < changes; i++) {
        times.push(await once());
        await page.waitForTimeout(30);
      }
      const { profile } = (await cdp.send('Profiler.stop')) as { profile: Profile };
      await ctx.close();
      out.push(
        `${kind}, ${size} combatants, ${changes} changes (p50 under the profiler ${median(times).toFixed(2)} ms)`,
      );
      out.push(...split(dist, profile, changes));
    }
  } finally {
    await browser.close();
    server.proc.kill('SIGTERM');
    await new Promise((r) => server.proc.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

if (process.argv[1]?.endsWith('web-profile.js')) {
  const [dist, size = '12', changes = '100', pages = 'gm,table,player'] = process.argv.slice(2);
  if (!dist || (size !== '12' && size !== '30')) {
    throw new Error(
      'Usage: web-profile.js <unminified dist with source maps> [12|30] [changes] [gm,table,player]',
    );
  }
  const kinds = pages
    .split(',')
    .filter((p): p is 'gm' | 'table' | 'player' => ['gm', 'table', 'player'].includes(p));
  for (const line of await profileWeb(dist, size === '12' ? 12 : 30, Number(changes), kinds)) {
    process.stdout.write(`${line}\n`);
  }
}
