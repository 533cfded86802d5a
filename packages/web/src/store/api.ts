import type { EncounterView, LogEntry } from '@roundkeeper/engine';

/** The server API of docs/api.md, as the web app uses it. */
export type Role = 'gm' | 'table' | 'player';

export interface ApiError {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly error: ApiError,
  ) {
    super(error.message);
  }
}

export interface EncounterMeta {
  id: string;
  name: string;
  ruleset: string;
  status?: string;
  [k: string]: unknown;
}

export interface EncounterResponse {
  encounter: EncounterMeta;
  role: Role;
  combatants?: string[];
  /** The command types the link may send (a player link's, as the GM allows). */
  allowed?: string[];
  seq: number;
  state: EncounterView;
}

export interface CreatedEncounter {
  encounter: EncounterMeta;
  links: { gm: string; table: string; players: Record<string, string> };
  tokens: { gm: string; table: string; players: Record<string, string> };
}

export interface RulesetInfo {
  id: string;
  name: string;
  summary: string;
  options: { name: string; default: unknown; description?: string }[];
  commands?: string[];
}

export interface PlayerLink {
  combatant: string;
  name: string;
  /** Absent once the GM revoked the link (until it is rotated). */
  url?: string;
  token?: string;
  allowed: string[];
  revoked?: true;
}

/** The links of an encounter as the GM lists them; a revoked table link is null. */
export interface EncounterLinks {
  gm: string;
  table: string | null;
  players: PlayerLink[];
}

/** A link the GM revokes or rotates. */
export type LinkName = { link: 'gm' } | { link: 'table' } | { link: 'player'; combatant: string };

async function call<T>(method: string, path: string, token: string | null, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    const err = (data as { error?: ApiError } | null)?.error ?? {
      code: `http/${res.status}`,
      message: `The server answered ${res.status} ${res.statusText}.`,
    };
    throw new ApiFailure(res.status, err);
  }
  return data as T;
}

/** A creature of the library: a combatant template for one ruleset. */
export interface Creature {
  name: string;
  side: 'pc' | 'npc';
  hp?: number;
  group?: string;
  hidden?: boolean;
  notes?: string;
  stats: Record<string, unknown>;
}

export const api = {
  library: (ruleset: string, key: string) =>
    call<{ creatures: Creature[]; examples: Creature[] }>('GET', `/api/library/${enc(ruleset)}`, key),
  saveCreature: (ruleset: string, key: string, creature: Creature) =>
    call<{ creature: Creature }>('PUT', `/api/library/${enc(ruleset)}`, key, { creature }),
  importCreatures: (ruleset: string, key: string, creatures: unknown[]) =>
    call<{ added: number }>('POST', `/api/library/${enc(ruleset)}/import`, key, { creatures }),
  removeCreature: (ruleset: string, key: string, name: string) =>
    call<void>('DELETE', `/api/library/${enc(ruleset)}/${enc(name)}`, key),
  rulesets: () =>
    call<{ rulesets: RulesetInfo[] } | RulesetInfo[]>('GET', '/api/rulesets', null).then((r) =>
      Array.isArray(r) ? r : r.rulesets,
    ),
  create: (body: Record<string, unknown>) => call<CreatedEncounter>('POST', '/api/encounters', null, body),
  lookup: (tokens: string[]) =>
    call<{ encounters: { encounter: EncounterMeta; role: Role }[] }>('POST', '/api/encounters/lookup', null, {
      tokens,
    }),
  get: (id: string, token: string) => call<EncounterResponse>('GET', `/api/encounters/${enc(id)}`, token),
  events: (id: string, token: string, after: number) =>
    call<{ seq: number; entries: LogEntry[] }>(
      'GET',
      `/api/encounters/${enc(id)}/events?after=${after}`,
      token,
    ),
  command: (id: string, token: string, command: unknown) =>
    call<{ seq: number; entries: LogEntry[] }>('POST', `/api/encounters/${enc(id)}/commands`, token, {
      command,
    }),
  patch: (id: string, token: string, body: Record<string, unknown>) =>
    call<unknown>('PATCH', `/api/encounters/${enc(id)}`, token, body),
  remove: (id: string, token: string) => call<void>('DELETE', `/api/encounters/${enc(id)}`, token),
  links: (id: string, token: string) =>
    call<EncounterLinks>('GET', `/api/encounters/${enc(id)}/links`, token),
  /** Revokes the table's or a player's link: its token opens nothing from now on. */
  revokeLink: (id: string, token: string, name: LinkName) =>
    call<EncounterLinks>('POST', `/api/encounters/${enc(id)}/links/revoke`, token, name),
  /** Replaces a link with a new one; rotating the GM's gives a new GM token (and new tokens for all). */
  rotateLink: (id: string, token: string, name: LinkName) =>
    call<EncounterLinks & { token: string }>('POST', `/api/encounters/${enc(id)}/links/rotate`, token, name),
  /** What a player's link may send (its command types). */
  setAllowed: (id: string, token: string, combatant: string, allowed: string[]) =>
    call<{ ok: true }>('PATCH', `/api/encounters/${enc(id)}/links/${enc(combatant)}`, token, { allowed }),
  exportScenario: async (id: string, token: string, format: 'json' | 'yaml'): Promise<string> => {
    const res = await fetch(`/api/encounters/${enc(id)}/export?format=${format}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (!res.ok) throw new ApiFailure(res.status, { code: `http/${res.status}`, message: await res.text() });
    return res.text();
  },
};

function enc(id: string): string {
  return encodeURIComponent(id);
}

export function errorMessage(e: unknown): string {
  if (e instanceof ApiFailure) return e.error.message;
  if (e instanceof Error) return e.message;
  return String(e);
}
