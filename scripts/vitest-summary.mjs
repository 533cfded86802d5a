// Runs the whole vitest suite, then prints one plain closing line ("N passed, N failed, N skipped")
// that any CI log reader understands. Exits with vitest's own status.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'rk-vitest-'));
const out = join(dir, 'results.json');
const run = spawnSync(
  process.execPath,
  [
    'node_modules/vitest/vitest.mjs',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${out}`,
    ...process.argv.slice(2),
  ],
  { stdio: 'inherit' },
);
let line = 'tests: no results (vitest did not write its report)';
try {
  const r = JSON.parse(readFileSync(out, 'utf8'));
  line = `tests: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests + r.numTodoTests} skipped`;
} catch {
  // keep the fallback line
}
rmSync(dir, { recursive: true, force: true });
console.log(line);
process.exit(run.status ?? 1);
