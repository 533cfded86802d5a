import { rulesets } from '@roundkeeper/rulesets';
import { SERVER_HELP, serveCommandLine } from '@roundkeeper/server/command-line';
import { Command, CommanderError } from 'commander';
import { analysisSvg, analyzeCommand, renderAnalysis } from './analyze.js';
import { CliError, EXIT, writeOutput } from './load.js';
import { openSession } from './play.js';
import { playInteractive, playScripted } from './play-terminal.js';
import { rulesetsCommand } from './rulesets-command.js';
import { runCommand } from './run.js';
import { exportCommand, importCommand } from './scenario-file.js';
import { simulateCommand, type Workers } from './simulate-command.js';

/** Parses a whole-number option, with a message that says what is expected. */
function integer(name: string, min: number, max: number) {
  return (text: string): number => {
    const n = Number(text);
    if (!Number.isSafeInteger(n) || n < min || n > max) {
      throw new CliError(
        `${name} must be a whole number from ${min} to ${max}, not "${text}".`,
        EXIT.refused,
        'usage/invalid-option',
      );
    }
    return n;
  };
}

/**
 * Whether the command line asks for JSON (`--json` before any `--`): its errors are then JSON too, on
 * stderr, shaped as the API's: `{"error": {"code": "file/unreadable", "message": "…"}}`.
 */
const jsonErrors = (() => {
  const args = process.argv.slice(2);
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).includes('--json');
})();

function writeError(code: string, message: string): void {
  process.stderr.write(
    jsonErrors ? `${JSON.stringify({ error: { code, message } })}\n` : `roundkeeper: ${message}\n`,
  );
}

const program = new Command();

// Set before the commands are added, which copy them: usage errors come back to the catch below (not
// process.exit), and with --json commander prints nothing itself (the catch prints the JSON).
program.exitOverride().configureOutput({
  writeErr: (text) => {
    if (!jsonErrors) process.stderr.write(text);
  },
});

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
  $ roundkeeper play examples/classic/ambush.yaml
  $ roundkeeper simulate examples/simulate/classic-duel.yaml --trials 2000 --seed 7
  $ roundkeeper analyze examples/simulate/classic-duel.yaml
  $ roundkeeper rulesets
  $ roundkeeper rulesets tara-corax --json

Manual: docs/cli.md`,
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
commands to replay. Steps may carry expectations (expect: {path: value}, expectLog, expectTimeline,
reject: code); run exits with 1 when one is not met.

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
        'ruleset/unknown',
      );
    }
    process.stdout.write(`${rulesetsCommand(rulesets, { ...opts, ...(id ? { id } : {}) })}\n`);
  });

program
  .command('play')
  .description(
    'Track a fight at the terminal: current actor, legal actions with reasons, resources, timeline.',
  )
  .argument('[scenario]', 'a scenario file to continue from (its commands are replayed first)')
  .option('--ruleset <id>', 'start an empty encounter of this ruleset instead of a scenario')
  .option('--seed <n>', 'dice seed for an empty encounter', integer('--seed', -(2 ** 31), 2 ** 31 - 1))
  .option('--json', 'scripted mode: print one JSON object per input line')
  .option('--no-timeline', 'leave out the ASCII timeline in the status')
  .addHelpText(
    'after',
    `
At a terminal, single keys drive it: n next, u undo, r redo, 1–9 take that enabled action of the
current actor, t timeline on/off, : type a command, ? help, q quit.

When stdin is not a terminal, it reads one command per line and prints the result of each:
  next · start · undo · act <actor> <action> [key=value …] · delay <actor> · damage <id> <amount>
  <n> (the nth enabled action in the list) · key=value values are JSON when they parse: targets=["orc"]
  {"type": "act", "actor": "ana", "action": "attack"}   (any command as JSON)
  show · actions [id] · timeline · log · export <file> · quit
A refused command prints the rule's sentence; the exit code is then 1.

Examples:
  $ roundkeeper play examples/classic/ambush.yaml
  $ roundkeeper play --ruleset classic --seed 3
  $ printf 'start\\nact ana attack\\nnext\\n' | roundkeeper play examples/classic/fight.yaml
  $ printf 'start\\nact ana attack target=orc\\n' | roundkeeper play examples/classic/fight.yaml --json`,
  )
  .action(
    async (
      scenario: string | undefined,
      opts: { ruleset?: string; seed?: number; json?: boolean; timeline?: boolean },
    ) => {
      if (scenario && opts.ruleset) {
        throw new CliError(
          'Give either a scenario file or --ruleset, not both.',
          EXIT.refused,
          'usage/conflicting-arguments',
        );
      }
      const session = openSession(
        {
          ...(scenario ? { scenario } : {}),
          ...(opts.ruleset ? { ruleset: opts.ruleset } : {}),
          ...(opts.seed !== undefined ? { seed: opts.seed } : {}),
        },
        rulesets,
      );
      session.showTimeline = opts.timeline !== false;
      if (process.stdin.isTTY && !opts.json) await playInteractive(session);
      else process.exitCode = await playScripted(session, process.stdin, { json: opts.json === true });
    },
  );

program
  .command('simulate')
  .description(
    'Monte Carlo: play the scenario many times with the policies it declares; per-round figures with 95% CIs.',
  )
  .argument('<scenario>', 'scenario file with an optional simulate: section (policies, events, questions)')
  .option('--trials <n>', 'how many fights to play', integer('--trials', 1, 100_000_000), 1000)
  .option(
    '--seed <n>',
    'seed of the whole run (each trial gets its own seed from it)',
    integer('--seed', -(2 ** 31), 2 ** 31 - 1),
    1,
  )
  .option(
    '--workers <k>',
    'threads sharing the trials (same figures for any K); auto: every core when the run is long',
    (text: string): Workers => {
      if (text === 'auto') return 'auto';
      const n = Number(text);
      if (Number.isSafeInteger(n) && n >= 1 && n <= 64) return n;
      throw new CliError(
        `--workers must be auto or a whole number from 1 to 64, not "${text}".`,
        EXIT.refused,
        'usage/invalid-option',
      );
    },
    'auto',
  )
  .option(
    '--rounds <r>',
    'rounds per trial (overrides simulate.rounds); on a tick timeline, stretches of 10 ticks',
    integer('--rounds', 1, 1000),
  )
  .option('--json', 'machine-readable results')
  .option('--plot <file.svg>', 'draw attacks-per-round distributions and the questions as SVG')
  .option('--progress', 'show the progress bar even when stderr is not a terminal')
  .option('--engine', 'run every trial through the engine even when a compiled round fits')
  .option(
    '--vary <key=a,b,c>',
    'the same fights under each value of an option or stat (ana.initiative: one combatant), compared with common random numbers',
  )
  .option('--report <file.html>', 'write one self-contained HTML page of the tables and plots')
  .addHelpText(
    'after',
    `
Each trial replays the scenario's setup and commands (then "start" if needed) with its own seed, and
plays rounds: on its turn a combatant takes the first rule of its policy whose action is enabled by the
ruleset's legal actions, again until no rule fits, then "next" (none after a turn that passed by itself,
as acting does on a tick timeline, whose figures are per 10 ticks). A rule may send any of the ruleset's
commands (declare, plan, react, delay…) at its moment (on: turn, planning, others, roll); a rule the
ruleset cannot take stops the run before it starts, and each refusal in play is listed under the rule
that asked. See docs/cli.md for the policy format, per ruleset.
A tara-corax or classic fight whose policies only attack runs on a compiled round: the same dice and the
same results as the engine, much faster; the output says which simulator ran (--engine forces the engine).
--workers K runs K threads (this one included) that share the trials; by default (auto) the command
starts alone and brings in every core once the first trials show the run will take over a second.

Examples:
  $ roundkeeper simulate examples/simulate/classic-duel.yaml --trials 2000 --seed 7
  $ roundkeeper simulate examples/simulate/classic-duel.yaml --trials 4000 --workers 2 --json
  $ roundkeeper simulate examples/simulate/classic-skirmish.yaml --plot skirmish.svg
  $ roundkeeper simulate examples/simulate/tara-corax-melee.yaml --trials 200000 --workers 2
  $ roundkeeper simulate examples/simulate/classic-duel.yaml --vary ana.initiative=0,2,4 --report duel.html`,
  )
  .action(
    async (
      scenario: string,
      opts: {
        trials: number;
        seed: number;
        workers: Workers;
        rounds?: number;
        json?: boolean;
        plot?: string;
        progress?: boolean;
        engine?: boolean;
        vary?: string;
        report?: string;
      },
    ) => {
      const out = await simulateCommand(scenario, rulesets, {
        ...opts,
        progress: opts.progress === true || process.stderr.isTTY === true,
      });
      process.stdout.write(`${out}\n`);
    },
  );

program
  .command('analyze')
  .description(
    'Exact initiative odds from the dice: distributions, who acts before whom, full orders, questions.',
  )
  .argument('<scenario>', 'scenario file with an optional analyze: section')
  .option('--json', 'machine-readable results')
  .option('--plot <file.svg>', "draw each combatant's initiative distribution as SVG")
  .addHelpText(
    'after',
    `
Each combatant's initiative score is a dice expression: analyze.initiative names it per combatant
(@name reads the combatant's stats); classic needs none (initiativeDice + modifier, ties to the higher
modifier, then a roll-off). Questions are comparisons of scores that must all hold, or the order of
a group of combatants (ties broken as in the fight):
  analyze:
    questions:
      - { name: monster strikes between attacks 2 and 3, all: ["fighter - 10 > monster", "monster > fighter - 15"] }
      - { name: the mage before both orcs, order: [mage, orc1, orc2] }

Examples:
  $ roundkeeper analyze examples/simulate/classic-duel.yaml
  $ roundkeeper analyze examples/simulate/classic-skirmish.yaml --json --plot odds.svg`,
  )
  .action((scenario: string, opts: { json?: boolean; plot?: string }) => {
    const result = analyzeCommand(scenario, rulesets);
    if (opts.plot) writeOutput(opts.plot, analysisSvg(result));
    process.stdout.write(`${opts.json ? JSON.stringify(result, null, 2) : renderAnalysis(result)}\n`);
  });

program
  .command('export')
  .description(
    'Replay a scenario and write its final encounter as a scenario file that replays to the same state.',
  )
  .argument('<scenario>', 'scenario file (.yaml, .yml or .json)')
  .option('--out <file>', 'where to write (.json → JSON, otherwise YAML); default: print YAML')
  .option('--json', 'print JSON (the scenario, or what --out wrote); errors as JSON on stderr')
  .addHelpText(
    'after',
    `
The export holds the setup, every accepted command (refused ones are left out) and expectations on
the final state, so \`roundkeeper run\` on it checks that it replays to the same state.

Examples:
  $ roundkeeper export examples/classic/ambush.yaml --out ambush.json
  $ roundkeeper export examples/classic/ambush.yaml > ambush-final.yaml`,
  )
  .action((scenario: string, opts: { out?: string; json?: boolean }) => {
    process.stdout.write(`${exportCommand(scenario, rulesets, opts.out, opts.json === true)}\n`);
  });

program
  .command('import')
  .description(
    'Check a scenario file from elsewhere (it must replay) and write it normalized, defaults filled in; or read an Improved Initiative export into a classic scenario, listing on stderr what did not map.',
  )
  .argument('<file>', 'scenario file (.yaml, .yml or .json), or an Improved Initiative export (.json)')
  .option('--out <file>', 'where to write (.json → JSON, otherwise YAML); default: print it')
  .option('--json', 'print JSON; unmet expectations as a JSON error on stderr')
  .option(
    '--encounter <name>',
    "an Improved Initiative export's saved encounter to take (default: the first; none saved: every creature)",
  )
  .addHelpText(
    'after',
    `
Exits 1 when the file replays but an expectation in it is not met, 2 when it cannot be read.

Examples:
  $ roundkeeper import ambush.json --out ambush-checked.yaml
  $ roundkeeper import examples/classic/fight.yaml
  $ roundkeeper import examples/improved-initiative/improved-initiative.json --encounter "Goblin ambush" --out ambush.yaml`,
  )
  .action((file: string, opts: { out?: string; json?: boolean; encounter?: string }) => {
    const { text, code, failures, notMapped } = importCommand(
      file,
      rulesets,
      opts.out,
      opts.json === true,
      opts.encounter,
    );
    if (notMapped.length && !opts.json)
      process.stderr.write(
        `Not mapped (classic has no place for it):\n${notMapped.map((l) => `  - ${l}`).join('\n')}\n`,
      );
    process.stdout.write(`${text}\n`);
    if (opts.json && failures.length)
      writeError(
        'scenario/expectation-not-met',
        `${file} replays, but ${failures.length} expectation(s) are not met: ${failures.join('; ')}`,
      );
    process.exitCode = code;
  });

// `serve` is the server's own command line (main.ts sends `roundkeeper serve …` there before this file
// loads); listed here for --help and `roundkeeper help serve`.
program
  .command('serve')
  .description(
    'Start the server: the web app and its API, on an embedded SQLite database (same as npm start).',
  )
  .argument('[options...]', "the server's options: --port, --host, --lan, --public-url, --data-dir, …")
  .helpOption(false)
  .allowUnknownOption()
  .addHelpText('after', `\n${SERVER_HELP}`)
  .action(async (args: string[]) => {
    await serveCommandLine(args);
  });

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CliError) {
    writeError(error.code, error.message);
    process.exitCode = error.exitCode;
  } else if (error instanceof CommanderError) {
    // Commander has printed its message (and help when asked for it), unless the errors are JSON:
    // commander.unknownOption → usage/unknown-option, its "error: " prefix left out.
    if (jsonErrors && error.exitCode !== 0) {
      const code = error.code.replace(/^commander\./, '').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
      writeError(`usage/${code}`, error.message.replace(/^error: /, ''));
    }
    process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.refused;
  } else {
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    writeError('internal/unexpected', `unexpected error: ${detail}`);
    process.exitCode = EXIT.unreadable;
  }
}
