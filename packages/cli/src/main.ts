#!/usr/bin/env node
import { rulesets } from '@roundkeeper/rulesets';
import { Command, CommanderError } from 'commander';
import { CliError, EXIT } from './load.js';
import { rulesetsCommand } from './rulesets-command.js';
import { runCommand } from './run.js';

const program = new Command();

program
  .name('roundkeeper')
  .description(
    'Keeps the clock of tabletop role-playing combat: replay, play, simulate and analyze encounters.',
  )
  .version('0.1.0')
  .showHelpAfterError('(run with --help for usage)')
  .addHelpText(
    'after',
    `
Exit codes:
  0  done
  1  refused by the rules, an expectation not met, or a usage error
  2  unreadable input (missing file, bad YAML/JSON, invalid scenario)

Examples:
  $ roundkeeper run examples/classic/ambush.yaml
  $ roundkeeper rulesets
  $ roundkeeper rulesets tara-corax --json`,
  );

program
  .command('run')
  .description('Replay a scenario file and print a round-by-round log and the timeline.')
  .argument('<file>', 'scenario file (.yaml, .yml or .json)')
  .option('--json', 'print the events, the final state and any unmet expectations as JSON')
  .option('--no-timeline', 'leave out the ASCII timeline')
  .addHelpText(
    'after',
    `
A scenario file names a ruleset, its options, the combatants, a seed or scripted dice, and the
commands to replay. Steps may carry expectations (expect: {path: value}, expectLog, reject: code);
run exits with 1 when one is not met.

Examples:
  $ roundkeeper run examples/classic/ambush.yaml
  $ roundkeeper run examples/classic/ambush.yaml --json > out.json`,
  )
  .action((file: string, opts: { json?: boolean; timeline?: boolean }) => {
    const { out, code } = runCommand(file, rulesets, opts);
    process.stdout.write(`${out}\n`);
    process.exitCode = code;
  });

program
  .command('rulesets')
  .description('List the rulesets, their options and their action catalogs.')
  .argument('[id]', 'show one ruleset in full, with its action catalog')
  .option('--json', 'machine-readable output')
  .addHelpText('after', '\nExamples:\n  $ roundkeeper rulesets\n  $ roundkeeper rulesets classic')
  .action((id: string | undefined, opts: { json?: boolean }) => {
    if (id && !Object.hasOwn(rulesets, id)) {
      throw new CliError(
        `There is no ruleset "${id}". Installed: ${Object.keys(rulesets).join(', ')}.`,
        EXIT.refused,
      );
    }
    process.stdout.write(`${rulesetsCommand(rulesets, { ...opts, ...(id ? { id } : {}) })}\n`);
  });

program.exitOverride();

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CliError) {
    process.stderr.write(`roundkeeper: ${error.message}\n`);
    process.exitCode = error.exitCode;
  } else if (error instanceof CommanderError) {
    // Commander has printed its message (and help when asked for it).
    process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.refused;
  } else {
    process.stderr.write(
      `roundkeeper: unexpected error: ${error instanceof Error ? error.stack : String(error)}\n`,
    );
    process.exitCode = EXIT.unreadable;
  }
}
