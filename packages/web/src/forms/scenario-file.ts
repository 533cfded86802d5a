import { loadRuleset, rulesetIds } from '../store/rulesets.js';

/** A file picked as a new encounter's scenario, read: what to send, and what of another tracker's did not map. */
export interface ScenarioRead {
  scenario: unknown;
  /** The other tracker the file came from ("Improved Initiative"), when it did. */
  format?: string;
  notMapped: string[];
  /** The file's saved encounters, when it holds more than one: the GM picks one (`pick`). */
  choices?: string[];
}

/**
 * The scenario of a file picked on the home page: a scenario file (JSON or YAML) as it is, or another
 * tracker's export a ruleset reads (`importers`: classic reads an Improved Initiative export — its
 * saved encounter: the one named `pick`, the first until the GM picks among several (`choices`) — else its
 * creatures and characters). What did not map goes into the scenario as a GM
 * note, so the GM's log says it once the encounter opens. Anything else is sent as it is: the server says
 * why it is not a scenario. The YAML parser and the rulesets load only here, when a file is picked.
 */
export async function scenarioFromFile(name: string, text: string, pick?: string): Promise<ScenarioRead> {
  const data: unknown = /\.ya?ml$/i.test(name) ? (await import('yaml')).parse(text) : JSON.parse(text);
  if (data === null || typeof data !== 'object' || 'ruleset' in data)
    return { scenario: data, notMapped: [] };
  for (const id of rulesetIds) {
    for (const importer of (await loadRuleset(id))?.importers ?? []) {
      const read = importer.read(data, pick);
      if (!read) continue;
      const names = importer.encounters?.(data) ?? [];
      const scenario = { ...read.scenario };
      if (read.notMapped.length) {
        const note = `Imported from ${importer.format}. Not mapped: ${read.notMapped.join('; ')}`;
        const commands = Array.isArray(scenario.commands) ? scenario.commands : [];
        scenario.commands = [...commands, { type: 'note', text: note.slice(0, 10_000) }];
      }
      return {
        scenario,
        format: importer.format,
        notMapped: read.notMapped,
        ...(names.length > 1 ? { choices: names } : {}),
      };
    }
  }
  return { scenario: data, notMapped: [] };
}
