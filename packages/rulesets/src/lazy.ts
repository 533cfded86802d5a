import type { AnyRuleset } from '@roundkeeper/engine';

/**
 * Every ruleset by id, each loaded when asked for: a bundler makes each its own chunk, so a web page
 * loads only the ruleset of the encounter it shows (the registry in index.ts loads them all at once).
 */
export const rulesetLoaders: Readonly<Record<string, () => Promise<AnyRuleset>>> = {
  classic: () => import('./classic/index.js').then((m) => m.classic),
  'tara-corax': () => import('./tara-corax/index.js').then((m) => m.taraCorax),
  'six-second': () => import('./six-second/index.js').then((m) => m.sixSecond),
  opend6: () => import('./opend6/index.js').then((m) => m.openD6),
  tempo: () => import('./tempo/index.js').then((m) => m.tempo),
  stamina: () => import('./stamina/index.js').then((m) => m.stamina),
  tick: () => import('./tick/index.js').then((m) => m.tick),
};
