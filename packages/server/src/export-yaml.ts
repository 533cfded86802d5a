import type { Json } from '@roundkeeper/engine';
import { stringify } from 'yaml';
import { Slices } from './limits.js';

/**
 * A scenario as YAML, one command at a time, giving way to other requests every few milliseconds: a
 * long encounter's export took hundreds of milliseconds in one piece. The commands are written as a
 * block sequence at the key's own indentation (`commands:\n- type: …`), which YAML reads the same.
 */
export async function scenarioYaml(scenario: Record<string, Json>): Promise<string> {
  const { commands, ...head } = scenario;
  const parts = [stringify(head)];
  if (Array.isArray(commands)) {
    if (commands.length === 0) parts.push('commands: []\n');
    else {
      parts.push('commands:\n');
      const slices = new Slices();
      for (const command of commands) {
        await slices.pause();
        parts.push(stringify([command]));
      }
    }
  }
  return parts.join('');
}
