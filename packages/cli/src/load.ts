import { readFileSync, writeFileSync } from 'node:fs';
import { explainZodError, isRejection, parseScenario, type Scenario } from '@roundkeeper/engine';
import { parse as parseYaml, YAMLParseError } from 'yaml';
import type { z } from 'zod';

/** Exit codes: 0 ok; 1 refused by the rules, an unmet expectation, or a usage error; 2 unreadable input. */
export const EXIT = { ok: 0, refused: 1, unreadable: 2 } as const;

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
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
    throw new CliError(`Cannot write ${path}: ${why}.`, EXIT.refused);
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
    );
  }
  let data: unknown;
  try {
    data = path.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    const detail =
      error instanceof YAMLParseError
        ? `${error.message.split('\n')[0]}`
        : error instanceof Error
          ? error.message
          : String(error);
    throw new CliError(
      `${path} is not valid ${path.endsWith('.json') ? 'JSON' : 'YAML'}: ${detail}`,
      EXIT.unreadable,
    );
  }
  return data;
}

/** Validates one section of a file with a zod schema; a failure names the field and exits 2. */
export function parseSection<T>(schema: z.ZodType<T>, data: unknown, path: string, section: string): T {
  const parsed = schema.safeParse(data ?? {});
  if (!parsed.success) {
    throw new CliError(`${path}: ${explainZodError(parsed.error, `"${section}" section`)}`, EXIT.unreadable);
  }
  return parsed.data;
}
