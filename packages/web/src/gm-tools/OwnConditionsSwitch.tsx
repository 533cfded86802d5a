import { OWN_CONDITION_COMMANDS } from '@roundkeeper/engine';
import { useId } from 'react';
import { api, type EncounterLinks, type PlayerLink } from '../store/api.js';

/**
 * A player link's switch: whether it may add and remove conditions on its own character (`add-effect`
 * and `remove-effect` among what it allows, stored with the link; off by default). The server refuses a
 * condition on anyone else's character in words. The player's page offers it when it next loads.
 */
export function OwnConditionsSwitch({
  id,
  token,
  player,
  name,
  run,
}: {
  id: string;
  token: string;
  player: PlayerLink;
  name: string;
  run: (work: () => Promise<EncounterLinks>) => Promise<void>;
}) {
  const checkId = useId();
  const own: readonly string[] = OWN_CONDITION_COMMANDS;
  const on = own.every((t) => player.allowed.includes(t));
  const rest = player.allowed.filter((t) => !own.includes(t));
  return (
    <span className="row small">
      <input
        id={checkId}
        type="checkbox"
        checked={on}
        onChange={(e) => {
          const allowed = e.currentTarget.checked ? [...rest, ...own] : rest;
          void run(async () => {
            await api.setAllowed(id, token, player.combatant, allowed);
            return api.links(id, token);
          });
        }}
      />
      <label htmlFor={checkId}>{name} may add and remove conditions on their own character</label>
    </span>
  );
}
