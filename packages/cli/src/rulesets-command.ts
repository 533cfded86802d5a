import { describeCost, describeRuleset, type RulesetRegistry } from '@roundkeeper/engine';

/**
 * Lists rulesets with their options (one line each, with defaults) and their action catalogs. `--json`
 * prints the rulesets as `describeRuleset` gives them, the same description as the server's
 * `GET /api/rulesets`.
 */
export function rulesetsCommand(registry: RulesetRegistry, opts: { json?: boolean; id?: string }): string {
  const data = Object.values(registry)
    .filter((r) => !opts.id || r.id === opts.id)
    .map((r) => describeRuleset(r, registry));
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
        if (a.takes.length) {
          const takes = a.takes.map((p) => `${p.label}${p.required ? '' : ' (optional)'}`);
          out.push(`    ${''.padEnd(22)} takes: ${takes.join(', ')}`);
        }
      }
    } else out.push(`  actions: ${r.catalog.length} (see \`roundkeeper rulesets ${r.id}\`)`);
    out.push('');
  }
  return out.join('\n');
}
