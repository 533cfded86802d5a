import type { Command } from '@roundkeeper/engine';
import { useCallback } from 'react';
import { reorderCommand } from '../../cards/reorder.js';
import { hpEdit, roundOrder } from '../../model.js';
import { useLatest, useStore } from '../../store/react.js';

/**
 * What a GM's card does: an HP change typed on it, a move up or down the order, a drop on another's
 * place. Each reads the fight as the store holds it when called, so the handlers keep their identity
 * from one change to the next and the cards whose combatant did not change are not drawn again.
 */
export function useCardActions() {
  const { run, tell: notify } = useStore();
  const latest = useLatest();
  const onHp = useCallback(
    async (cid: string, text: string) => {
      const edit = hpEdit(text);
      const name = latest().v.combatants[cid]?.name ?? cid;
      if (!edit) {
        notify(
          {
            ok: false,
            error: `"${text}" is not an HP change: type -7 for damage, +5 to heal, 12 to set HP, t5 for temporary HP.`,
          },
          'hp',
        );
        return false;
      }
      const cmd: Command =
        edit.kind === 'set'
          ? { type: 'set-hp', combatant: cid, current: edit.current }
          : edit.kind === 'temp'
            ? { type: 'set-hp', combatant: cid, temp: edit.temp }
            : { type: edit.kind, combatant: cid, amount: edit.amount };
      const what = (() => {
        switch (edit.kind) {
          case 'damage':
            return `${edit.amount} damage to ${name}`;
          case 'heal':
            return `${name} healed ${edit.amount}`;
          case 'temp':
            return `${name} has ${edit.temp} temporary HP`;
          case 'set':
            return `${name}'s HP set to ${edit.current}`;
        }
      })();
      const r = await run(cmd, what);
      return r.ok;
    },
    [run, notify, latest],
  );
  const onMove = useCallback(
    async (cid: string, direction: 'up' | 'down') => {
      const { v } = latest();
      const cmd = reorderCommand(v, cid, direction);
      const name = v.combatants[cid]?.name ?? cid;
      if (!cmd)
        return notify({ ok: false, error: `${name} cannot move ${direction} the order here.` }, 'move');
      run(cmd, `${name} moved ${direction} the order`);
    },
    [run, notify, latest],
  );
  // A card dropped on another's place: up past it when it stood above, down past it when below.
  const onDrop = useCallback(
    async (cid: string, onto: string) => {
      const { v, e } = latest();
      const shown = roundOrder(v, e);
      const direction = shown.indexOf(onto) < shown.indexOf(cid) ? 'up' : 'down';
      const cmd = reorderCommand(v, cid, direction, onto);
      const name = v.combatants[cid]?.name ?? cid;
      const other = v.combatants[onto]?.name ?? onto;
      const where = direction === 'up' ? 'before' : 'after';
      if (!cmd)
        return notify(
          { ok: false, error: `${name} cannot move ${where} ${other} in the order here.` },
          'move',
        );
      run(cmd, `${name} moved ${where} ${other}`);
    },
    [run, notify, latest],
  );
  return { onHp, onMove, onDrop };
}
