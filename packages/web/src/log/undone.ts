import type { LogEntry } from '@roundkeeper/engine';

/**
 * The command groups taken back now: an undo or a redo names its group and comes after its entries, so
 * the first one met reading back decides (as the engine's `roundOrder` reads the log).
 */
export function undoneGroups(entries: readonly LogEntry[]): ReadonlySet<number> {
  const decided = new Map<number, boolean>();
  for (let i = entries.length - 1; i >= 0; i--) {
    const { type, group } = entries[i]!.event;
    if ((type === 'undo' || type === 'redo') && typeof group === 'number' && !decided.has(group))
      decided.set(group, type === 'undo');
  }
  const out = new Set<number>();
  for (const [group, undone] of decided) if (undone) out.add(group);
  return out;
}
