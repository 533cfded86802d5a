import { rulesets } from '@roundkeeper/rulesets';
import { type AppOptions, buildApp } from './app.js';
import { MemoryStorage } from './storage/memory.js';

/**
 * For tests: the app on a fresh in-memory storage with every ruleset, no rate limit and no logs, with
 * `extra` options on top.
 */
export function memoryApp(extra: Partial<AppOptions> = {}): ReturnType<typeof buildApp> {
  return buildApp({
    storage: new MemoryStorage(),
    registry: rulesets,
    rateLimit: 0,
    logLevel: 'silent',
    ...extra,
  });
}
