import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  type AnyRuleset,
  actsFor,
  type Command,
  type EncounterState,
  isGmCommand,
  OWN_CONDITION_COMMANDS,
  ownConditionRefusal,
  type Rejection,
  reject,
  type Viewer,
} from '@roundkeeper/engine';
import { z } from 'zod';
import type { LinkRecord, Role } from './storage/storage.js';

/** A new GM token: 192 random bits, URL-safe. */
export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

/** What the server stores in place of a token. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * The table's and each player's token, derived from the GM's: the server stores only hashes, yet the GM
 * can list every link again at any time.
 */
export function deriveToken(gmToken: string, purpose: string): string {
  return createHmac('sha256', gmToken).update(purpose).digest('base64url').slice(0, 32);
}

export function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Tokens look like this; anything else is refused before a database look-up. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

export function viewerOf(link: Pick<LinkRecord, 'role' | 'combatants'>): Viewer {
  if (link.role === 'gm') return { role: 'gm' };
  if (link.role === 'table') return { role: 'table' };
  return { role: 'player', combatants: link.combatants };
}

/**
 * The ruleset commands a player link may send by default: those that name an acting character, less the
 * ones the ruleset declares as the GM's (`.meta({ gm: true })`), and `next`.
 */
export function defaultPlayerCommands(ruleset: AnyRuleset): string[] {
  const out = Object.entries(ruleset.commands)
    .filter(
      ([type, schema]) =>
        schema instanceof z.ZodObject && 'actor' in schema.shape && !isGmCommand(ruleset, type),
    )
    .map(([type]) => type);
  return [...new Set([...out, 'next'])];
}

export function playerLink(
  encounterId: string,
  gmToken: string,
  combatant: string,
  name: string,
  allowed: string[],
  now: string,
): { token: string; record: LinkRecord } {
  const token = deriveToken(gmToken, `player:${combatant}`);
  return {
    token,
    record: {
      hash: hashToken(token),
      encounterId,
      role: 'player',
      combatants: [combatant],
      allowed,
      label: name,
      createdAt: now,
    },
  };
}

/**
 * Whether a link may send this command now: the GM may send anything; the table nothing; a player only
 * the allowed command types, and only for their own characters — every combatant the command acts for by
 * its declaration (`actsFor`: the actor, the keys of an initiative or Character Point map…). A command
 * that acts for nobody in particular (`next`) only while one of theirs has the turn. Adding and removing
 * conditions (`add-effect`, `remove-effect`), where the GM allowed them: on their own character only
 * (`ownConditionRefusal`), their turn or not.
 */
export function authorize(
  link: LinkRecord,
  command: Command,
  state: EncounterState,
  ruleset: AnyRuleset,
): Rejection | undefined {
  if (link.role === 'gm') return undefined;
  if (link.role === 'table') {
    return reject(
      'link/read-only',
      'The table view is read-only; commands come from the GM or a player link.',
    );
  }
  const mine = link.combatants;
  const nameOf = (id: string) => (Object.hasOwn(state.combatants, id) ? state.combatants[id]!.name : id);
  const names = mine.map(nameOf).join(', ');
  if (!link.allowed.includes(command.type)) {
    return reject(
      'link/not-allowed',
      `This player link may not send "${command.type}". The GM allows: ${link.allowed.join(', ') || 'nothing'}.`,
      { type: command.type },
    );
  }
  // Conditions, where the GM allowed them this link: on the player's own character only, at any time.
  if (isOwnConditionCommand(command.type)) return ownConditionRefusal(state, mine, command);
  const actors = actsFor(ruleset, command);
  const others = actors.filter((id) => !mine.includes(id));
  if (others.length > 0) {
    return reject(
      'link/not-your-character',
      `This link commands only ${names}; ask the GM to act for ${others.map(nameOf).join(', ')}.`,
      { actor: others[0]! },
    );
  }
  if (command.type === 'next' || actors.length === 0) {
    if (!state.current || !mine.includes(state.current)) {
      return reject(
        'link/not-your-turn',
        `A player may end only their own turn, and it is not ${names}'s turn now.`,
      );
    }
  }
  return undefined;
}

/** Whether a command type is one of a player's own conditions, which the GM may allow a player link. */
export function isOwnConditionCommand(type: string): boolean {
  return (OWN_CONDITION_COMMANDS as readonly string[]).includes(type);
}

export type { Role };

/** Which of an encounter's links: the GM's, the table's, or a player's (by the combatant it commands). */
export type LinkName = { role: 'gm' } | { role: 'table' } | { role: 'player'; combatant: string };

/**
 * The token of the table's or a player's link at a generation: the first (0) is derived as before
 * generations existed, every rotation after it with `#N` added, so a rotated link gets a new token the
 * GM can still list.
 */
export function derivedToken(
  gmToken: string,
  name: Exclude<LinkName, { role: 'gm' }>,
  generation: number,
): string {
  const purpose = name.role === 'table' ? 'table' : `player:${name.combatant}`;
  return deriveToken(gmToken, generation ? `${purpose}#${generation}` : purpose);
}

/** The link's newest row (highest generation) among an encounter's rows, if it has one. */
export function latestLink(rows: readonly LinkRecord[], name: LinkName): LinkRecord | undefined {
  let latest: LinkRecord | undefined;
  for (const r of rows) {
    if (r.role !== name.role) continue;
    if (name.role === 'player' && r.combatants[0] !== name.combatant) continue;
    if (!latest || (r.generation ?? 0) > (latest.generation ?? 0)) latest = r;
  }
  return latest;
}
