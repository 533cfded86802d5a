import type { Command, Json, Param } from '@roundkeeper/engine';

/**
 * An action's form at the terminal: the same parameter descriptions the web palette draws (`Param`),
 * asked one line at a time. Enter skips an optional field; `cancel` drops the action.
 */
export class ParamForm {
  private index = 0;
  constructor(
    readonly command: Command,
    readonly params: readonly Param[],
    readonly title: string,
  ) {}

  get done(): boolean {
    return this.index >= this.params.length;
  }

  /** The question for the field now asked: its label, what it takes, and its choices numbered. */
  question(): string {
    const p = this.params[this.index]!;
    const lines = [`${this.title} — ${p.label}${p.required ? '' : ' (Enter to skip)'}${hintOf(p)}`];
    if (p.help) lines.push(`  ${p.help}`);
    for (const [i, o] of (p.options ?? []).entries()) lines.push(`  ${i + 1}. ${o.label}`);
    return lines.join('\n');
  }

  /** Takes one line as the answer to the field asked; returns a sentence when it cannot. */
  answer(line: string): string | undefined {
    const p = this.params[this.index]!;
    const text = line.trim();
    if (text === '') {
      if (p.required) return `${p.label} is needed for this action: enter it, or type cancel.`;
      this.index++;
      return undefined;
    }
    const value = read(p, text);
    if (typeof value === 'object' && value !== null && 'error' in value) return value.error as string;
    this.command[p.name] = value as Json;
    this.index++;
    return undefined;
  }
}

function hintOf(p: Param): string {
  if (p.type === 'integer' || p.type === 'number') {
    if (p.min !== undefined && p.max !== undefined) return ` [${p.min}–${p.max}]`;
    if (p.min !== undefined) return ` [${p.min} or more]`;
  }
  if (p.type === 'boolean') return ' [y/n]';
  if (p.type === 'dice') return ' [dice, e.g. 1d20+5]';
  if (p.options?.length) return ` [1–${p.options.length}]`;
  if (
    p.type === 'per-combatant' ||
    p.type === 'group' ||
    p.type === 'duration' ||
    p.type === 'list' ||
    p.type === 'map' ||
    p.type === 'json'
  )
    return ' [JSON]';
  return '';
}

function read(p: Param, text: string): Json | { error: string } {
  if (p.options?.length) {
    const n = Number(text);
    if (Number.isInteger(n) && n >= 1 && n <= p.options.length) return p.options[n - 1]!.value;
    const match = p.options.find(
      (o) => String(o.value) === text || o.label.toLowerCase() === text.toLowerCase(),
    );
    if (match) return match.value;
    return { error: `${p.label}: choose 1 to ${p.options.length}, or type a name from the list.` };
  }
  switch (p.type) {
    case 'integer':
    case 'number': {
      const n = Number(text);
      if (!Number.isFinite(n) || (p.type === 'integer' && !Number.isInteger(n)))
        return { error: `${p.label} is a ${p.type === 'integer' ? 'whole ' : ''}number.` };
      if ((p.min !== undefined && n < p.min) || (p.max !== undefined && n > p.max))
        return { error: `${p.label} is from ${p.min ?? '…'} to ${p.max ?? '…'}.` };
      return n;
    }
    case 'boolean':
      if (/^(y|yes|true|1)$/i.test(text)) return true;
      if (/^(n|no|false|0)$/i.test(text)) return false;
      return { error: `${p.label}: answer y or n.` };
    case 'per-combatant':
    case 'group':
    case 'duration':
    case 'list':
    case 'map':
    case 'json':
      try {
        return JSON.parse(text) as Json;
      } catch {
        return { error: `${p.label} is written as JSON here, e.g. {"ana": 2}.` };
      }
    default:
      return text;
  }
}
