import { readFileSync, writeFileSync } from 'node:fs';
import { arch, cpus, totalmem } from 'node:os';
import { benchBytes } from './bytes.js';
import { benchCli } from './cli.js';
import { benchCluster } from './cluster.js';
import { benchDice } from './dice.js';
import { benchEngine, type Row } from './engine.js';
import { benchHardening } from './hardening.js';
import { benchServer } from './server.js';
import { benchSide, pairSide, profileSide } from './side.js';
import { benchWeb } from './web.js';

/**
 * `npm run bench`: every benchmark in one run, side by side, printed as a table. With `--write`, the
 * table replaces the figures section of docs/benchmarks.md.
 */
async function main(): Promise<void> {
  const rows: Row[] = [];
  if (process.argv.includes('--pair')) {
    process.stderr.write('two builds of the server under the side-by-side CPU load at once…\n');
    await pairSide();
    return;
  }
  const profile = process.argv.find((a) => a.startsWith('--profile='))?.slice(10);
  if (profile) {
    process.stderr.write(`profiling the server under the side-by-side CPU load into ${profile}…\n`);
    await profileSide(profile);
    return;
  }
  // `--only=engine,dice,cli,bytes,server,hardening,side,cluster,web` runs some sections; the default runs them all.
  const only = process.argv
    .find((a) => a.startsWith('--only='))
    ?.slice(7)
    .split(',');
  const want = (section: string) => !only || only.includes(section);
  if (want('engine')) {
    process.stderr.write('engine benchmarks…\n');
    rows.push(...(await benchEngine()));
  }
  if (want('dice')) {
    process.stderr.write('dice benchmarks…\n');
    const dice = await benchDice();
    for (const r of dice.rows) {
      rows.push({
        name: r.name,
        value: `${(r.opsPerSec / 1e6).toFixed(2)} M rolls/s`,
        target: '—',
        met: true,
      });
    }
    rows.push({
      name: 'dice: ours / @dice-roller/rpg-dice-roller, 1d10! pre-parsed',
      value: `${dice.ratio.toFixed(1)}×`,
      target: '≥ 30×',
      met: dice.ratio >= 30,
    });
  }
  if (want('cli')) {
    process.stderr.write('cli benchmarks…\n');
    // `--quick`: the cli rows at a tenth of their durations, to see that they work.
    const quick = process.argv.includes('--quick');
    rows.push(...(await benchCli('tara-corax', { agility: 6, intellect: 4, landSpeed: 10 }, { quick })));
  }
  if (want('bytes')) {
    process.stderr.write('bytes per change…\n');
    rows.push(...(await benchBytes()));
  }
  if (want('server')) rows.push(...(await benchServer()));
  if (want('hardening')) {
    process.stderr.write('hardening: a flooding client, the loop at the largest encounter…\n');
    rows.push(...(await benchHardening()));
  }
  if (want('side')) rows.push(...(await benchSide()));
  if (want('cluster')) rows.push(...(await benchCluster()));
  if (want('web')) {
    process.stderr.write('web benchmarks…\n');
    rows.push(...(await benchWeb()));
  }
  const machine = `Node ${process.version}, ${arch()}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB`;
  const table = [
    `Measured ${new Date().toISOString().slice(0, 10)} on ${machine}.`,
    '',
    '| benchmark | result | target | met |',
    '| --- | --- | --- | --- |',
    ...rows.map((r) => `| ${r.name} | ${r.value} | ${r.target} | ${r.met ? 'yes' : '**no**'} |`),
  ].join('\n');
  process.stdout.write(`${table}\n`);
  if (process.argv.includes('--write')) {
    const path = new URL('../../docs/benchmarks.md', import.meta.url);
    const doc = readFileSync(path, 'utf8');
    const start = '<!-- figures:start -->';
    const end = '<!-- figures:end -->';
    const a = doc.indexOf(start);
    const b = doc.indexOf(end);
    if (a < 0 || b < 0) throw new Error('docs/benchmarks.md lacks the figures markers');
    writeFileSync(path, `${doc.slice(0, a + start.length)}\n${table}\n${doc.slice(b)}`);
    process.stderr.write('docs/benchmarks.md updated\n');
  }
  if (rows.some((r) => !r.met)) process.exitCode = 1;
}

await main();
