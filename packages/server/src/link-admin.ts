import type { AnyRuleset, EncounterState } from '@roundkeeper/engine';
import { OWN_CONDITION_COMMANDS, reject } from '@roundkeeper/engine';
import type { Fanout } from './fanout.js';
import { HubError } from './hub-error.js';
import {
  defaultPlayerCommands,
  derivedToken,
  hashToken,
  type LinkName,
  latestLink,
  newToken,
  playerLink,
} from './links.js';
import type { Live } from './live-encounter.js';
import { messageText } from './messages.js';
import type { LinkRecord, Storage } from './storage/storage.js';

/** What link administration needs of the hub: its storage, its copies in memory and their queues. */
export interface LinkHost {
  readonly storage: Storage;
  readonly fanout: Fanout;
  open(id: string): Promise<Live>;
  serialize<T>(live: Live, task: () => Promise<T>): Promise<T>;
  time(): string;
  playerLinks(
    id: string,
    gm: string,
    state: EncounterState,
    ruleset: AnyRuleset,
    time: string,
  ): Array<{ token: string; record: LinkRecord }>;
}

/**
 * An encounter's share links after it is created: listing them, what a player's link allows, revoking
 * and rotating them, and closing the live connections of links that no longer open anything.
 */
export class LinkAdmin {
  constructor(private readonly host: LinkHost) {}

  /**
   * Every link of an encounter, re-derived from the GM token at its current generation (player links for
   * PCs added since too). A revoked link is listed as revoked, without a token.
   */
  async links(
    id: string,
    gmToken: string,
  ): Promise<{
    gm: string;
    table: string | null;
    players: Array<{ combatant: string; name: string; token?: string; allowed: string[]; revoked?: true }>;
  }> {
    const live = await this.host.open(id);
    const time = this.host.time();
    const rows = await this.host.storage.listLinks(id);
    const fresh: LinkRecord[] = [];
    const players: Array<{
      combatant: string;
      name: string;
      token?: string;
      allowed: string[];
      revoked?: true;
    }> = [];
    for (const d of this.host.playerLinks(id, gmToken, live.log.state, live.ruleset, time)) {
      const combatant = d.record.combatants[0]!;
      const latest = latestLink(rows, { role: 'player', combatant });
      if (latest?.revoked) {
        players.push({ combatant, name: d.record.label, allowed: latest.allowed, revoked: true });
        continue;
      }
      const generation = latest?.generation ?? 0;
      const token = derivedToken(gmToken, { role: 'player', combatant }, generation);
      if (!latest) fresh.push(d.record);
      players.push({ combatant, name: d.record.label, token, allowed: latest?.allowed ?? d.record.allowed });
    }
    await this.host.storage.addLinks(fresh);
    const table = latestLink(rows, { role: 'table' });
    return {
      gm: gmToken,
      table: table?.revoked ? null : derivedToken(gmToken, { role: 'table' }, table?.generation ?? 0),
      players,
    };
  }

  async setAllowed(id: string, gmToken: string, combatant: string, allowed: string[]): Promise<void> {
    const live = await this.host.open(id);
    const ruleset = live.ruleset;
    // The ruleset's commands, next, and a player's own conditions (add-effect, remove-effect).
    const known = new Set([...Object.keys(ruleset.commands), 'next', ...OWN_CONDITION_COMMANDS]);
    const unknown = allowed.filter((a) => !known.has(a));
    if (unknown.length) {
      throw new HubError(
        400,
        reject(
          'link/unknown-command',
          `Not commands of ${ruleset.name}: ${unknown.join(', ')}. Known: ${[...known].join(', ')}.`,
        ),
      );
    }
    this.requireCombatant(live, combatant);
    const latest = latestLink(await this.host.storage.listLinks(id), { role: 'player', combatant });
    if (latest) {
      await this.host.storage.updateLink(latest.hash, { allowed });
      // The player's open connections send their next command with what the link allows now.
      for (const sub of live.subscribers) if (sub.link === latest.hash) sub.relinked?.({ allowed });
      void this.host.fanout.publish({ encounter: id, kind: 'links' }).catch(() => undefined);
      return;
    }
    const name = live.log.state.combatants[combatant]!.name;
    await this.host.storage.addLinks([
      playerLink(id, gmToken, combatant, name, allowed, this.host.time()).record,
    ]);
  }

  private requireCombatant(live: Live, combatant: string): void {
    if (!Object.hasOwn(live.log.state.combatants, combatant)) {
      throw new HubError(
        404,
        reject('combatant/unknown', `There is no combatant "${combatant}" in this encounter.`),
      );
    }
  }

  /**
   * Revokes the table's or a player's link: its token opens nothing from now on, and its live
   * connections are closed. The GM's link can only be rotated (someone must keep the encounter).
   */
  async revokeLink(id: string, gmToken: string, name: LinkName): Promise<void> {
    if (name.role === 'gm') {
      throw new HubError(
        400,
        reject(
          'link/gm-revoke',
          "The GM link can't be revoked, or no one could run the encounter; rotate it instead to get a new one.",
        ),
      );
    }
    const live = await this.host.open(id);
    if (name.role === 'player') this.requireCombatant(live, name.combatant);
    await this.host.serialize(live, async () => {
      const latest = latestLink(await this.host.storage.listLinks(id), name);
      if (latest) {
        await this.host.storage.updateLink(latest.hash, { revoked: true });
        this.disconnect(live, new Set([latest.hash]));
        void this.host.fanout.publish({ encounter: id, kind: 'links' }).catch(() => undefined);
        return;
      }
      // A player link never listed yet: stored revoked, so listing links does not bring it back.
      const time = this.host.time();
      const label = name.role === 'player' ? live.log.state.combatants[name.combatant]!.name : 'Table';
      const token = derivedToken(gmToken, name, 0);
      await this.host.storage.addLinks([
        {
          hash: hashToken(token),
          encounterId: id,
          role: name.role,
          combatants: name.role === 'player' ? [name.combatant] : [],
          allowed: name.role === 'player' ? defaultPlayerCommands(live.ruleset) : [],
          label,
          createdAt: time,
          revoked: true,
        },
      ]);
    });
  }

  /**
   * Replaces a link with a new one (its next generation): the old token opens nothing from now on and
   * its live connections are closed; what the link allowed carries over. Rotating the GM's link gives
   * a new GM token and, since the others derive from it, a new token for every link not revoked.
   * Returns the GM token that now lists every link.
   */
  async rotateLink(id: string, gmToken: string, name: LinkName): Promise<string> {
    const live = await this.host.open(id);
    if (name.role === 'player') this.requireCombatant(live, name.combatant);
    return this.host.serialize(live, async () => {
      const time = this.host.time();
      const rows = await this.host.storage.listLinks(id);
      const next = (row: LinkRecord | undefined, root: string, which: Exclude<LinkName, { role: 'gm' }>) => {
        const generation = (row?.generation ?? 0) + 1;
        const combatant = which.role === 'player' ? which.combatant : undefined;
        const record: LinkRecord = {
          hash: hashToken(derivedToken(root, which, generation)),
          encounterId: id,
          role: which.role,
          combatants: combatant ? [combatant] : [],
          allowed: row?.allowed ?? (combatant ? defaultPlayerCommands(live.ruleset) : []),
          label: row?.label ?? (combatant ? live.log.state.combatants[combatant]!.name : 'Table'),
          createdAt: time,
          generation,
        };
        return record;
      };
      const replaced = new Set<string>();
      const added: LinkRecord[] = [];
      let root = gmToken;
      if (name.role === 'gm') {
        root = newToken();
        const gm = latestLink(rows, name);
        added.push({
          hash: hashToken(root),
          encounterId: id,
          role: 'gm',
          combatants: [],
          allowed: [],
          label: 'GM',
          createdAt: time,
          generation: (gm?.generation ?? 0) + 1,
        });
        for (const row of rows) {
          if (row.revoked) continue;
          replaced.add(row.hash);
          if (row.role === 'gm') continue;
          const which: Exclude<LinkName, { role: 'gm' }> =
            row.role === 'table' ? { role: 'table' } : { role: 'player', combatant: row.combatants[0]! };
          if (latestLink(rows, which) === row) added.push(next(row, root, which));
        }
      } else {
        const latest = latestLink(rows, name);
        if (latest && !latest.revoked) replaced.add(latest.hash);
        added.push(next(latest, root, name));
      }
      await this.host.storage.addLinks(added);
      for (const hash of replaced) await this.host.storage.updateLink(hash, { revoked: true });
      this.disconnect(live, replaced);
      void this.host.fanout.publish({ encounter: id, kind: 'links' }).catch(() => undefined);
      return root;
    });
  }

  /**
   * Closes the live connections that came in with these links; a command they sent that is still
   * waiting its turn is refused.
   */
  private disconnect(live: Live, hashes: ReadonlySet<string>): void {
    for (const sub of live.subscribers) {
      if (sub.link === undefined || !hashes.has(sub.link)) continue;
      sub.relinked?.({ revoked: true });
      sub.send(messageText({ type: 'revoked' }));
      sub.close();
    }
  }

  /**
   * Another instance changed this encounter's links (or its notices had a gap): the connections here
   * take what their links allow now, and those whose link was revoked are closed.
   */
  async recheckLinks(id: string, live: Live): Promise<void> {
    if (![...live.subscribers].some((sub) => sub.link !== undefined)) return;
    const rows = new Map((await this.host.storage.listLinks(id)).map((row) => [row.hash, row]));
    const gone = new Set<string>();
    for (const sub of live.subscribers) {
      if (sub.link === undefined) continue;
      const row = rows.get(sub.link);
      if (!row || row.revoked) gone.add(sub.link);
      else sub.relinked?.({ allowed: row.allowed });
    }
    this.disconnect(live, gone);
  }
}
