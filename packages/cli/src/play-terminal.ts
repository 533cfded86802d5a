import { createInterface, emitKeypressEvents } from 'node:readline';
import { createInterface as createPromptInterface } from 'node:readline/promises';
import { EXIT } from './load.js';
import type { PlayResult, PlaySession } from './play.js';

/** One line saying where the fight is, printed after each accepted command in scripted mode. */
function where(session: PlaySession): string {
  const s = session.state;
  if (s.status === 'setup') return '── not started';
  if (s.status === 'ended') return '── the fight has ended';
  const when = s.now ? session.ruleset.clock.describe(s, s.now) : `Round ${s.round}`;
  const name = s.current ? (s.combatants[s.current]?.name ?? s.current) : undefined;
  return `── ${when}${name && !when.includes(name) ? ` · ${name} to act` : ''}`;
}

/**
 * Scripted play: one command per line from `input`, the result of each on stdout. Returns the exit
 * code: 1 if any line was refused or not understood, else 0.
 */
export async function playScripted(
  session: PlaySession,
  input: NodeJS.ReadableStream,
  opts: { json: boolean },
): Promise<number> {
  const write = (text: string) => process.stdout.write(`${text}\n`);
  if (!opts.json) write(session.status());
  if (!opts.json && session.opening) write(`\n${session.opening}`);
  let code: number = EXIT.ok;
  let handled = 0;
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY, terminal: false });
  for await (const line of lines) {
    const text = line.trim();
    if (text === '' || text.startsWith('#')) continue;
    handled++;
    const result: PlayResult = session.handle(text);
    if (!result.ok) code = EXIT.refused;
    if (opts.json) {
      if (result.quit) break;
      write(JSON.stringify(result.json ?? { ok: result.ok, out: result.out }));
      continue;
    }
    write(`> ${text}`);
    if (result.out) write(result.out);
    if (result.quit) break;
    if (result.ok && result.json && (result.json as { command?: unknown }).command) write(where(session));
  }
  // The state at the end, unless nothing changed it since the one printed at the start.
  if (!opts.json && handled > 0) write(`\n${session.status()}`);
  return code;
}

/** Interactive play at a terminal: single keys (`PlaySession.key`), and ':' for a command line. */
export async function playInteractive(session: PlaySession): Promise<void> {
  const { stdin, stdout } = process;
  let message = session.opening ? `${session.opening}\n${session.keys()}` : session.keys();
  const redraw = () => {
    stdout.write(`\x1b[2J\x1b[H${session.status()}\n\n${message}\n`);
  };
  emitKeypressEvents(stdin);
  stdin.setRawMode(true);
  stdin.resume();
  redraw();
  await new Promise<void>((resolve) => {
    const finish = () => {
      stdin.off('keypress', onKey);
      stdin.setRawMode(false);
      stdin.pause();
      stdout.write('\n');
      resolve();
    };
    const onKey = (text: string | undefined, key: { name?: string; ctrl?: boolean } | undefined) => {
      if (key?.ctrl && key.name === 'c') return finish();
      // Arrows, Enter and other keys that are not one printable character do nothing.
      if (text === undefined || !/^[ -~]$/.test(text)) return;
      const r = session.key(text);
      if (r.quit) return finish();
      if (r.prompt) {
        stdin.off('keypress', onKey);
        stdin.setRawMode(false);
        // A command line (`:`), or an action's form asking its fields one line at a time.
        const ask = (question: string) => {
          if (question) stdout.write(`\n${question}\n`);
          const prompt = createPromptInterface({ input: stdin, output: stdout });
          void prompt.question(': ').then((line) => {
            prompt.close();
            const typed = session.handle(line);
            if (typed.quit) return finish();
            if (typed.prompt) return ask(typed.out);
            stdin.setRawMode(true);
            stdin.resume();
            stdin.on('keypress', onKey);
            message = typed.out ? `${typed.out}\n${session.keys()}` : session.keys();
            redraw();
          });
        };
        ask(r.out);
        return;
      }
      message = r.out ? `${r.out}\n${session.keys()}` : session.keys();
      redraw();
    };
    stdin.on('keypress', onKey);
  });
}
