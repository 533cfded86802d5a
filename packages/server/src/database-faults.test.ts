import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readdirSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { api, SERVER_BIN, startServerProcess, tempDir } from './test-process.js';

// Issue 34, item 7: a server that cannot use its database says which file and why, creates nothing
// beside it, and does not serve from a damaged one. Against real server processes.

function start(dataDir: string) {
  return spawnSync(process.execPath, [SERVER_BIN, '--port', '0', '--data-dir', dataDir], {
    encoding: 'utf8',
    timeout: 20_000,
  });
}

describe('start-up with a database it cannot use', () => {
  it('a file that is not a database: the message names it, and no -wal or -shm appears beside it', () => {
    const dir = tempDir();
    const file = join(dir, 'roundkeeper.sqlite');
    writeFileSync(file, 'these are my notes, not a database\n'.repeat(200));
    const r = start(dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(file);
    expect(r.stderr).toMatch(/not a Roundkeeper database/);
    expect(readdirSync(dir)).toEqual(['roundkeeper.sqlite']);
  });

  it('a path it cannot open as a file: named, and nothing created', () => {
    const dir = tempDir();
    const file = join(dir, 'roundkeeper.sqlite');
    mkdirSync(file);
    const r = start(dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`cannot open the database ${file}`);
    expect(readdirSync(dir)).toEqual(['roundkeeper.sqlite']);
  });

  it('a torn page: the integrity check at start refuses it, naming the file', async () => {
    const dir = tempDir();
    const server = await startServerProcess(dir, ['--rate-limit', '0']);
    for (let i = 0; i < 20; i++) {
      const r = await api(server.url, 'POST', '/api/encounters', {
        name: `Fight ${i}`,
        ruleset: 'classic',
        combatants: Array.from({ length: 30 }, (_, j) => ({ name: `Orc ${j}`, stats: { initiative: j } })),
      });
      expect(r.status).toBe(201);
    }
    expect(await server.stop()).toBe(0);
    const file = join(dir, 'roundkeeper.sqlite');
    expect(existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0).toBe(0);
    // Half of a page in the middle of the file is overwritten, as a write cut short leaves it.
    const size = statSync(file).size;
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.alloc(2048, 0xa5), 0, 2048, Math.floor(size / 2 / 4096) * 4096);
    const r = start(dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`the database ${file} is damaged`);
  });
});
