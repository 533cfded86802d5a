import {
  actionCommandOf,
  actionParams,
  commandForms,
  createEncounter,
  describeCost,
  type EncounterState,
  isRejection,
  type RulesetRegistry,
  seededDice,
} from '@roundkeeper/engine';
import { z } from 'zod';

/** Lists rulesets with their options (one line each, with defaults) and their action catalogs. */
export function rulesetsCommand(registry: RulesetRegistry, opts: { json?: boolean; id?: string }): string {
  const list = Object.values(registry).filter((r) => !opts.id || r.id === opts.id);
  const data = list.map((r) => {
    const defaults = r.optionsSchema.parse({}) as Record<string, unknown>;
    const schema = z.toJSONSchema(r.optionsSchema, { io: 'input', unrepresentable: 'any' }) as {
      properties?: Record<string, { description?: string }>;
    };
    const options = Object.entries(schema.properties ?? {}).map(([name, p]) => ({
      name,
      default: defaults[name] ?? null,
      description: p.description ?? '',
    }));
    const created = createEncounter(
      { id: 'probe', name: 'probe', ruleset: r.id, dice: seededDice(1) },
      registry,
    );
    const probe = isRejection(created) ? undefined : (created.state as unknown as EncounterState);
    const catalog = (probe ? r.catalog(probe) : []).map((a) => ({
      id: a.id,
      name: a.name,
      kind: a.kind,
      cost: a.cost,
      text: a.text,
      params: actionParams(r, a, probe ? actionCommandOf(r.present, probe, '', a).type : 'act'),
    }));
    return {
      id: r.id,
      name: r.name,
      version: r.version,
      summary: r.summary,
      commands: Object.keys(r.commands),
      forms: commandForms(r),
      options,
      catalog,
    };
  });
  if (opts.json) return JSON.stringify(data, null, 2);
  const out: string[] = [];
  for (const r of data) {
    out.push(`${r.id} — ${r.name} (v${r.version})`, `  ${r.summary}`, `  commands: ${r.commands.join(', ')}`);
    if (r.options.length) {
      out.push('  options:');
      for (const o of r.options) out.push(`    ${o.name} = ${JSON.stringify(o.default)}  ${o.description}`);
    }
    if (opts.id) {
      out.push('  actions:');
      for (const a of r.catalog) {
        const cost = Object.keys(a.cost).length ? describeCost(a.cost) : '';
        out.push(
          `    ${a.id.padEnd(22)} ${a.name}${cost ? ` (${cost})` : ''}${a.text ? ` — ${a.text}` : ''}`,
        );
        if (a.params.length) {
          const takes = a.params.map((p) => `${p.label}${p.required ? '' : ' (optional)'}`);
          out.push(`    ${''.padEnd(22)} takes: ${takes.join(', ')}`);
        }
      }
    } else out.push(`  actions: ${r.catalog.length} (see \`roundkeeper rulesets ${r.id}\`)`);
    out.push('');
  }
  return out.join('\n');
}
