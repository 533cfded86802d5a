import { readFileSync } from 'node:fs';

/**
 * `node bench/dist/profile-summary.js FILE.cpuprofile [N]`: where a V8 CPU profile's time went, as
 * self time per function and per package (node_modules/<name>, our packages/<name>, node: internals),
 * the N largest of each. The per-step breakdown in docs/benchmarks.md is read off it.
 */
interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

const [file, top = '30'] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: node bench/dist/profile-summary.js FILE.cpuprofile [N]\n');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<number, number>();
let total = 0;
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  self.set(id, (self.get(id) ?? 0) + dt);
  total += dt;
});
const where = (url: string): string => {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url) ?? /packages\/([^/]+)\//.exec(url);
  if (m) return m[1]!;
  if (url.startsWith('node:')) return 'node';
  return url === '' ? '(native)' : url;
};
const fns = new Map<string, number>();
const pkgs = new Map<string, number>();
for (const [id, us] of self) {
  const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
  const name = `${functionName || '(anonymous)'} ${where(url)}${url ? `/${url.split('/').at(-1)}:${lineNumber + 1}` : ''}`;
  fns.set(name, (fns.get(name) ?? 0) + us);
  pkgs.set(where(url), (pkgs.get(where(url)) ?? 0) + us);
}
const show = (title: string, m: Map<string, number>) => {
  process.stdout.write(`${title}\n`);
  for (const [k, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, Number(top))) {
    process.stdout.write(
      `${((100 * us) / total).toFixed(1).padStart(5)} %  ${(us / 1000).toFixed(0).padStart(6)} ms  ${k}\n`,
    );
  }
};
// Inclusive time: a function's own and its callees', counted once per stack where it recurs.
const inclusive = new Map<string, number>();
const nameOf = (n: Node) => {
  const { functionName, url, lineNumber } = n.callFrame;
  return `${functionName || '(anonymous)'} ${where(url)}${url ? `/${url.split('/').at(-1)}:${lineNumber + 1}` : ''}`;
};
const walk = (id: number, onStack: Set<string>): number => {
  const n = byId.get(id)!;
  let t = self.get(id) ?? 0;
  const name = nameOf(n);
  const fresh = !onStack.has(name);
  if (fresh) onStack.add(name);
  for (const c of n.children ?? []) t += walk(c, onStack);
  if (fresh) {
    onStack.delete(name);
    inclusive.set(name, (inclusive.get(name) ?? 0) + t);
  }
  return t;
};
walk(profile.nodes[0]!.id, new Set());
const busy = total - (fns.get('(idle) (native)') ?? 0);
process.stdout.write(`${(total / 1000).toFixed(0)} ms sampled, ${(busy / 1000).toFixed(0)} ms busy\n`);
show('by package', pkgs);
show('by function (self time)', fns);
show('by function (with callees)', inclusive);
