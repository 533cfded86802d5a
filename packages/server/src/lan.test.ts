import { execFileSync, spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lanAddresses } from './network.js';
import { api, type ServerProcess, startServerProcess } from './test-process.js';

// Players' phones on the GM's Wi-Fi, played by a network namespace of this machine joined to it by a
// veth pair: the "phone" has its own address and reaches the laptop only through that link, as a phone
// reaches a laptop over Wi-Fi. The addresses are in 198.18.0.0/15, the range set aside for tests.

const tag = process.pid % 250;
const ns = `rk-phone-${process.pid}`;
const laptopIf = `rkl${process.pid % 100_000}`;
const phoneIf = `rkp${process.pid % 100_000}`;
const laptop = `198.18.${tag}.1`;
const phoneAddress = `198.18.${tag}.2`;

function run(...args: string[]): void {
  execFileSync(args[0]!, args.slice(1), { stdio: 'pipe' });
}

/** Whether this machine lets the test make a network namespace (root and iproute2). */
function canMakeNamespaces(): boolean {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  return spawnSync('ip', ['netns', 'list'], { stdio: 'ignore' }).status === 0;
}

/** A request from the phone: node inside the namespace, its answer as JSON. */
function fromPhone(
  url: string,
  init: { method?: string; body?: unknown } = {},
): { status: number; body: unknown; error?: string } {
  const script = `
    const [url, init] = JSON.parse(process.argv[1]);
    fetch(url, { method: init.method ?? 'GET', headers: init.body ? { 'content-type': 'application/json' } : {},
      body: init.body ? JSON.stringify(init.body) : undefined, signal: AbortSignal.timeout(5000) })
      .then(async (res) => { const text = await res.text(); let body = text; try { body = JSON.parse(text); } catch {}
        console.log(JSON.stringify({ status: res.status, body })); })
      .catch((e) => console.log(JSON.stringify({ status: 0, body: null, error: String(e.cause?.code ?? e) })));`;
  const out = execFileSync(
    'ip',
    ['netns', 'exec', ns, process.execPath, '-e', script, JSON.stringify([url, init])],
    {
      encoding: 'utf8',
      timeout: 15_000,
    },
  );
  return JSON.parse(out);
}

const encounter = {
  name: 'At the table',
  ruleset: 'classic',
  combatants: [{ id: 'ana', name: 'Ana', side: 'pc', stats: { initiative: 1 } }],
};

interface Created {
  links: { gm: string; table: string; players: Record<string, string> };
}

describe.skipIf(!canMakeNamespaces())('players join from their phones on the local network', () => {
  const servers: ServerProcess[] = [];

  beforeAll(() => {
    run('ip', 'netns', 'add', ns);
    run('ip', 'link', 'add', laptopIf, 'type', 'veth', 'peer', 'name', phoneIf);
    run('ip', 'link', 'set', phoneIf, 'netns', ns);
    run('ip', 'addr', 'add', `${laptop}/30`, 'dev', laptopIf);
    run('ip', 'link', 'set', laptopIf, 'up');
    run('ip', 'netns', 'exec', ns, 'ip', 'addr', 'add', `${phoneAddress}/30`, 'dev', phoneIf);
    run('ip', 'netns', 'exec', ns, 'ip', 'link', 'set', phoneIf, 'up');
    run('ip', 'netns', 'exec', ns, 'ip', 'link', 'set', 'lo', 'up');
  });

  afterAll(async () => {
    for (const server of servers) await server.stop();
    // Deleting the namespace deletes the veth pair with it.
    spawnSync('ip', ['netns', 'del', ns], { stdio: 'ignore' });
    spawnSync('ip', ['link', 'del', laptopIf], { stdio: 'ignore' });
  });

  it('a phone cannot reach a server started without --lan', async () => {
    const server = await startServerProcess(undefined, ['--rate-limit', '0']);
    servers.push(server);
    const port = new URL(server.url).port;
    const answer = fromPhone(`http://${laptop}:${port}/api/health`);
    expect(answer.status).toBe(0);
    expect(answer.error).toBe('ECONNREFUSED');
  });

  it('with --lan the server prints the address phones open, a phone joins there, and links point there', async () => {
    const server = await startServerProcess(undefined, ['--rate-limit', '0', '--lan']);
    servers.push(server);
    const port = new URL(server.url).port;
    const printed = [...server.stdout().matchAll(/http:\/\/(\d+\.\d+\.\d+\.\d+):\d+/g)].map((m) => m[1]);
    expect(printed).toContain(laptop);
    expect(server.stdout()).toMatch(/Players on this machine's network \(the same Wi-Fi\) open: http:\/\//);

    // The phone, at the address printed for it.
    const phoneOrigin = `http://${laptop}:${port}`;
    expect(fromPhone(`${phoneOrigin}/api/health`)).toMatchObject({ status: 200, body: { ok: true } });
    const created = fromPhone(`${phoneOrigin}/api/encounters`, { method: 'POST', body: encounter });
    expect(created.status).toBe(201);
    const { links } = created.body as Created;
    expect(links.players.ana!.startsWith(`${phoneOrigin}/e/`)).toBe(true);
    // The player's link opens the web app on the phone.
    const page = fromPhone(links.players.ana!);
    expect(page.status).toBe(200);
    expect(String(page.body)).toContain('<div id="root">');

    // The GM's page on the laptop itself (127.0.0.1): links point at the first address printed, not at
    // the loopback a phone cannot use.
    const first = /open: (http:\/\/\S+)/.exec(server.stdout())![1]!;
    const fromLaptop = (await api(server.url, 'POST', '/api/encounters', encounter)).body as Created;
    for (const link of [fromLaptop.links.table, fromLaptop.links.players.ana!])
      expect(link.startsWith(`${first}/e/`)).toBe(true);
  });
});

// Where namespaces cannot be made (not root, not Linux): the machine's own address on its network,
// which is not the loopback, stands in for the phone's way in.
const hostAddress = lanAddresses()[0]?.address;

describe.skipIf(canMakeNamespaces() || !hostAddress)("this machine's address on its network", () => {
  it('reaches a server started with --lan, at the address it prints, and not one started without', async () => {
    const closed = await startServerProcess(undefined, ['--rate-limit', '0']);
    const port = new URL(closed.url).port;
    const refused = await fetch(`http://${hostAddress}:${port}/api/health`).catch(
      (e: Error & { cause?: { code?: string } }) => e.cause?.code,
    );
    await closed.stop();
    expect(refused).toBe('ECONNREFUSED');

    const server = await startServerProcess(undefined, ['--rate-limit', '0', '--lan']);
    try {
      const printed = /open: (http:\/\/\S+)/.exec(server.stdout())![1]!;
      expect(new URL(printed).hostname).toBe(hostAddress);
      expect((await fetch(`${printed}/api/health`)).status).toBe(200);
      const created = (await api(server.url, 'POST', '/api/encounters', encounter)).body as Created;
      expect(created.links.players.ana!.startsWith(`${printed}/e/`)).toBe(true);
    } finally {
      await server.stop();
    }
  });
});

describe('a hosted server', () => {
  it('with --public-url every link points at the address players reach a hosted server at', async () => {
    const server = await startServerProcess(undefined, ['--rate-limit', '0'], {
      env: { RK_PUBLIC_URL: 'https://rk.example.org' },
    });
    expect(server.stdout()).toContain('Share links point to https://rk.example.org');
    const created = (await api(server.url, 'POST', '/api/encounters', encounter)).body as Created;
    expect(created.links.players.ana!.startsWith('https://rk.example.org/e/')).toBe(true);
    expect(created.links.gm.startsWith('https://rk.example.org/e/')).toBe(true);
    await server.stop();
  });
});
