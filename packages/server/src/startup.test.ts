import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { api, LiveClient, SERVER_BIN, startServerProcess, tempDir } from './test-process.js';

describe('start: flags and environment', () => {
  it('takes host, port and data directory from the environment, prints the URL, and the first run creates the database', async () => {
    const dir = join(tempDir(), 'nested', 'data');
    const server = await startServerProcess(dir, [], {
      flags: false,
      env: { RK_HOST: '127.0.0.1', RK_PORT: '0', RK_DATA_DIR: dir, RK_RATE_LIMIT: '0' },
    });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(existsSync(join(dir, 'roundkeeper.sqlite'))).toBe(true);
    expect((await api(server.url, 'GET', '/api/health')).body).toMatchObject({ ok: true });
    expect(await server.stop()).toBe(0);
  });

  it("serves the web app's build from --web-root, with its routes falling back to index.html", async () => {
    const web = tempDir();
    writeFileSync(join(web, 'index.html'), '<!doctype html><title>Roundkeeper web build</title>');
    const server = await startServerProcess(undefined, ['--rate-limit', '0', '--web-root', web]);
    for (const path of ['/', '/e/abc?token=whatever']) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('Roundkeeper web build');
      expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    }
    await server.stop();
  });

  it('prints its options with --help and refuses a bad flag with a sentence', () => {
    const help = spawnSync(process.execPath, [SERVER_BIN, '--help'], { encoding: 'utf8' });
    expect(help.status).toBe(0);
    for (const flag of ['--host', '--port', '--data-dir', 'RK_DATA_DIR']) expect(help.stdout).toContain(flag);
    const bad = spawnSync(process.execPath, [SERVER_BIN, '--port', 'eighty'], { encoding: 'utf8' });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('--port must be a whole number');
  });
});

describe('no secret in logs', () => {
  it('logs requests at the most verbose level without any token, from headers, query strings or sockets', async () => {
    const server = await startServerProcess(undefined, ['--rate-limit', '0', '--log-level', 'debug']);
    const created = (
      await api(server.url, 'POST', '/api/encounters', {
        name: 'Quiet',
        ruleset: 'classic',
        combatants: [{ id: 'ana', name: 'Ana', side: 'pc', stats: { initiative: 1 } }],
      })
    ).body as { encounter: { id: string }; tokens: { gm: string; table: string; players: { ana: string } } };
    const id = created.encounter.id;
    const { gm, table } = created.tokens;
    const ana = created.tokens.players.ana;
    await api(server.url, 'GET', `/api/encounters/${id}`, undefined, gm);
    await fetch(`${server.url}/api/encounters/${id}?token=${table}`);
    await fetch(`${server.url}/e/${id}?token=${ana}`);
    await api(server.url, 'POST', `/api/encounters/${id}/commands`, { command: { type: 'nope' } }, ana);
    await fetch(`${server.url}/api/encounters/${id}/commands`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gm}`, 'content-type': 'application/json' },
      body: '{"command": ',
    });
    await api(server.url, 'POST', '/api/encounters/lookup', { tokens: [gm, table] });
    const live = new LiveClient(`${server.url}/api/encounters/${id}/live?token=${gm}`);
    await live.next((m) => m.type === 'hello');
    live.close();
    await server.stop();
    const logs = server.stdout() + server.stderr();
    expect(logs).toContain('"url":"/api/encounters/'); // requests were logged
    for (const token of [gm, table, ana]) expect(logs).not.toContain(token);
  });
});

describe('start: what a server on SQLite loads', () => {
  it('does not load the PostgreSQL client or the YAML library until they are needed', () => {
    // The server's modules as `npm start` loads them, without starting it; then the CommonJS modules
    // loaded so far (pg is one, under its ESM wrapper) and whether the YAML export module was evaluated.
    const script = `
      import { createRequire } from 'node:module';
      await import(${JSON.stringify(new URL('../dist/server.js', import.meta.url).href)});
      const loaded = Object.keys(createRequire(import.meta.url).cache);
      console.log(JSON.stringify(loaded.filter((f) => /node_modules\\/(pg|pg-pool|yaml)\\//.test(f))));
    `;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual([]);
  });
});
