import { readFileSync, writeFileSync } from 'node:fs';
import { explainZodError, isRejection, parseScenario, type Scenario } from '@roundkeeper/engine';
import { parse as parseYaml, YAMLParseError } from 'yaml';
import type { z } from 'zod';

/** Exit codes: 0 ok; 1 refused by the rules, an unmet expectation, or a usage error; 2 unreadable input. */
export const EXIT = { ok: 0, refused: 1, unreadable: 2 } as const;

/**
 * A failure the CLI explains: its sentence, its exit code, and a code like the API's (`file/unreadable`),
 * which `--json` prints with the message as `{"error": {"code", "message"}}` on stderr.
 */
export class CliError extends Error {
  readonly code: string;
  constructor(
    message: string,
    readonly exitCode: number,
    code?: string,
  ) {
    super(message);
    this.code = code ?? (exitCode === EXIT.unreadable ? 'input/invalid' : 'command/refused');
  }
}

/** Writes an output file (`--plot`, `--out`, `export`); a path that cannot be written is a usage error. */
export function writeOutput(path: string, text: string): void {
  try {
    writeFileSync(path, text);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'its folder does not exist; create the folder or choose another path'
        : code === 'EACCES' || code === 'EPERM'
          ? 'permission denied; choose a path you may write to'
          : code === 'EISDIR'
            ? 'it is a folder; give a file name'
            : `${(error as Error).message}; choose another path`;
    throw new CliError(`Cannot write ${path}: ${why}.`, EXIT.refused, 'output/unwritable');
  }
}

/** Reads a scenario file (YAML or JSON) and validates it, with messages that say how to fix it. */
export function loadScenario(path: string): Scenario {
  return loadScenarioFile(path).scenario;
}

/**
 * A scenario file and its raw data: `simulate:` and `analyze:` sections are the CLI's own, so they are
 * read from the raw data (the engine's scenario schema leaves them out).
 */
export function loadScenarioFile(path: string): { scenario: Scenario; raw: Record<string, unknown> } {
  const data = readData(path);
  const scenario = parseScenario(data);
  if (isRejection(scenario)) {
    throw new CliError(
      `${path}: ${scenario.message} See examples/ for complete scenario files.`,
      EXIT.unreadable,
      scenario.code,
    );
  }
  return { scenario, raw: data as Record<string, unknown> };
}

/** Reads and parses a YAML or JSON file. */
export function readData(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : String(code ?? error);
    throw new CliError(
      `Cannot read ${path}: ${why}. Give the path of a .yaml or .json scenario file.`,
      EXIT.unreadable,
      'file/unreadable',
    );
  }
  let data: unknown;
  const json = path.endsWith('.json');
  try {
    data = json ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    // A YAML error ends with the lines around the problem and a caret under it: kept whole.
    const detail =
      error instanceof YAMLParseError
        ? error.message.trimEnd()
        : error instanceof Error
          ? error.message
          : String(error);
    throw new CliError(
      `${path} is not valid ${json ? 'JSON' : 'YAML'}: ${detail}`,
      EXIT.unreadable,
      json ? 'file/invalid-json' : 'file/invalid-yaml',
    );
  }
  return data;
}

/** Validates one section of a file with a zod schema; a failure names the field and exits 2. */
export function parseSection<T>(schema: z.ZodType<T>, data: unknown, path: string, section: string): T {
  const parsed = schema.safeParse(data ?? {});
  if (!parsed.success) {
    throw new CliError(
      `${path}: ${explainZodError(parsed.error, `"${section}" section`)}`,
      EXIT.unreadable,
      'scenario/invalid-section',
    );
  }
  return parsed.data;
}
