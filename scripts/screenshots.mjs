// Screenshots of the GM page (1280×720), the table screen (1920×1080) and the player's page (360×740)
// for docs/web.md: a real server on a temp data dir, a classic fight three turns in, Debian's Chromium.
// Run with `npm run screenshots` (it builds first). Writes docs/images/web-*.png.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';

const repo = resolve(import.meta.dirname, '..');
const out = join(repo, 'docs/images');
const dataDir = mkdtempSync(join(tmpdir(), 'roundkeeper-shots-'));

function startServer() {
  const proc = spawn(
    process.execPath,
    [join(repo, 'packages/server/dist/main.js'), '--port', '0', '--data-dir', dataDir],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  return new Promise((ok, fail) => {
    let text = '';
    const timer = setTimeout(() => fail(new Error(`The server did not start:\n${text}`)), 15_000);
    const read = (b) => {
      text += b.toString();
      const m = /listening on (http:\/\/\S+)/.exec(text);
      if (m) {
        clearTimeout(timer);
        ok({ proc, url: m[1].replace(/\/$/, '') });
      }
    };
    proc.stdout.on('data', read);
    proc.stderr.on('data', read);
  });
}

async function call(url, method, path, token, body) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${JSON.stringify(data)}`);
  return data;
}

const { proc, url } = await startServer();
const browser = await chromium.launch({
  executablePath: ['/usr/lib/chromium/chromium', '/usr/bin/chromium'].find((p) => existsSync(p)),
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
try {
  mkdirSync(out, { recursive: true });
  const created = await call(url, 'POST', '/api/encounters', null, {
    name: 'Ambush at the ford',
    ruleset: 'classic',
    seed: 7,
    combatants: [
      { id: 'ana', name: 'Ana', side: 'pc', hp: 24, player: 'ana', stats: { initiative: 3 } },
      { id: 'bren', name: 'Bren', side: 'pc', hp: 31, player: 'bren', stats: { initiative: 1 } },
      { id: 'goblin-1', name: 'Goblin 1', side: 'npc', hp: 7, group: 'Goblins', stats: { initiative: 2 } },
      { id: 'goblin-2', name: 'Goblin 2', side: 'npc', hp: 7, group: 'Goblins', stats: { initiative: 2 } },
      { id: 'ogre', name: 'Ogre', side: 'npc', hp: 59, stats: { initiative: -1 } },
      {
        id: 'lurker',
        name: 'Lurker',
        side: 'npc',
        hp: 12,
        hidden: true,
        notes: 'Waits in the reeds.',
        stats: { initiative: 4 },
      },
    ],
  });
  const id = created.encounter.id;
  const gm = created.tokens.gm;
  const send = (command) => call(url, 'POST', `/api/encounters/${id}/commands`, gm, { command });
  await send({ type: 'start' });
  await send({ type: 'damage', combatant: 'goblin-1', amount: 4 });
  await send({
    type: 'add-effect',
    target: 'ogre',
    name: 'Frightened',
    duration: { kind: 'until-round-end', round: 2 },
  });
  await send({ type: 'next' });
  await send({ type: 'damage', combatant: 'ana', amount: 6 });
  await send({ type: 'next' });

  const shots = [
    { file: 'web-gm.png', width: 1280, height: 720, token: gm },
    { file: 'web-table.png', width: 1920, height: 1080, token: created.tokens.table },
    { file: 'web-player.png', width: 360, height: 740, token: created.tokens.players.ana, mobile: true },
  ];
  for (const s of shots) {
    const ctx = await browser.newContext({
      viewport: { width: s.width, height: s.height },
      isMobile: Boolean(s.mobile),
    });
    const page = await ctx.newPage();
    await page.goto(`${url}/e/${encodeURIComponent(id)}?token=${encodeURIComponent(s.token)}`);
    await page.getByTestId('clock').filter({ hasText: 'Round' }).waitFor();
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(out, s.file) });
    await ctx.close();
    console.log(`docs/images/${s.file}`);
  }
} finally {
  await browser.close();
  proc.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
}
