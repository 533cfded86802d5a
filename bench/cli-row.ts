import { measureExample } from './cli.js';

/**
 * `node bench/dist/cli-row.js <example> <ms>`: one example's combatant-rounds per CPU-second, through the
 * engine and compiled where it runs, as JSON on stdout — run by `bench/cli.ts` in a process of its own per
 * ruleset, as the command runs.
 */
const [path, ms] = process.argv.slice(2);
if (!path || !ms) throw new Error('usage: cli-row.js <example> <ms>');
process.stdout.write(JSON.stringify(measureExample(path, Number(ms))));
