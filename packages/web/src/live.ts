import {
  type ChangeMessage,
  type Command,
  type EncounterView,
  type HeldView,
  type LogEntry,
  receiveChange,
} from '@roundkeeper/engine';
import { useCallback, useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { ApiFailure, api, type EncounterMeta, errorMessage, type Role } from './api.js';
import { backoff, mergeEntries, share } from './merge.js';
import { SocketCommands } from './socket-commands.js';

/** One encounter as this viewer sees it, kept live over the WebSocket (docs/api.md, "Live"). */
export interface LiveEncounter {
  status: 'loading' | 'ready' | 'error' | 'deleted';
  error?: string;
  meta?: EncounterMeta;
  role?: Role;
  /** The player's own combatants (player links only). */
  mine: string[];
  state?: EncounterView;
  seq: number;
  entries: LogEntry[];
  connected: boolean;
}

export interface SendResult {
  ok: boolean;
  error?: string;
  code?: string;
}

export function liveUrl(id: string, token: string, after: number, loc: Location = location): string {
  const proto = loc.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${proto}//${loc.host}/api/encounters/${encodeURIComponent(id)}/live?token=${encodeURIComponent(token)}&after=${after}`;
}

export function useEncounter(id: string, token: string) {
  const [live, setLive] = useState<LiveEncounter>({
    status: 'loading',
    mine: [],
    seq: 0,
    entries: [],
    connected: false,
  });
  const seqRef = useRef(0);
  /** The view as the socket gave it (its `hello`, then every change applied): the base of the next delta. */
  const heldRef = useRef<HeldView | undefined>(undefined);
  const socketRef = useRef<WebSocket | null>(null);
  const [commands] = useState(() => new SocketCommands());

  useEffect(() => {
    let closed = false;
    let attempt = 0;
    heldRef.current = undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;

    const connect = () => {
      if (closed) return;
      const ws = new WebSocket(liveUrl(id, token, seqRef.current));
      socketRef.current = ws;
      commands.attach(ws);
      ws.onopen = () => {
        attempt = 0;
      };
      ws.onmessage = (ev) => {
        let msg: Record<string, unknown>;
        try {
          msg = JSON.parse(String(ev.data)) as Record<string, unknown>;
        } catch {
          return;
        }
        switch (msg.type) {
          case 'hello': {
            const seq = Number(msg.seq ?? 0);
            seqRef.current = Math.max(seqRef.current, seq);
            const state = share(heldRef.current?.state, msg.state as EncounterView);
            heldRef.current = { seq, state };
            setLive((l) => ({
              ...l,
              status: 'ready',
              role: (msg.role as Role) ?? l.role,
              state,
              seq,
              connected: true,
            }));
            break;
          }
          case 'events':
            setLive((l) => ({ ...l, entries: mergeEntries(l.entries, (msg.entries as LogEntry[]) ?? []) }));
            break;
          case 'change': {
            const held = heldRef.current;
            const r = receiveChange(held, msg as unknown as ChangeMessage);
            if ('resync' in r) {
              // A change that does not follow the view held (one missed, or a delta that does not fit):
              // reconnect from the view held, which sends the whole view and the events since.
              if (held) seqRef.current = held.seq;
              ws.close();
              break;
            }
            // A delta's result already shares every unchanged part; a whole view is shared here.
            const state = msg.state ? share(held?.state, r.held.state) : r.held.state;
            heldRef.current = { seq: r.held.seq, state };
            seqRef.current = Math.max(seqRef.current, r.held.seq);
            // Rendered in this task, not in one the scheduler queues behind whatever else the page has to do:
            // the change is on the screen as soon as it has arrived.
            flushSync(() =>
              setLive((l) => ({
                ...l,
                state,
                seq: r.held.seq,
                entries: mergeEntries(l.entries, r.entries),
                connected: true,
              })),
            );
            break;
          }
          case 'revoked':
            // The GM revoked or replaced this link: no reconnecting with it.
            closed = true;
            setLive((l) => ({
              ...l,
              status: 'error',
              error: 'The GM revoked this link or replaced it with a new one: ask the GM for your new link.',
              connected: false,
            }));
            ws.close();
            break;
          case 'deleted':
            closed = true;
            setLive((l) => ({ ...l, status: 'deleted', connected: false }));
            ws.close();
            break;
          default:
            break;
        }
      };
      ws.onclose = () => {
        if (socketRef.current === ws) socketRef.current = null;
        setLive((l) => (l.connected ? { ...l, connected: false } : l));
        if (closed) return;
        timer = setTimeout(connect, backoff(attempt++));
      };
      ws.onerror = () => {
        // onclose follows and schedules the reconnect.
      };
    };

    (async () => {
      try {
        const [enc, log] = await Promise.all([api.get(id, token), api.events(id, token, 0)]);
        if (closed) return;
        seqRef.current = Math.max(enc.seq, log.seq);
        heldRef.current = { seq: enc.seq, state: enc.state };
        setLive((l) => ({
          ...l,
          status: 'ready',
          meta: enc.encounter,
          role: enc.role,
          mine: enc.combatants ?? [],
          state: enc.state,
          seq: enc.seq,
          entries: mergeEntries(l.entries, log.entries),
        }));
        connect();
      } catch (e) {
        if (closed) return;
        setLive((l) => ({
          ...l,
          status: e instanceof ApiFailure && e.status === 404 ? 'deleted' : 'error',
          error: errorMessage(e),
        }));
      }
    })();

    return () => {
      closed = true;
      if (timer) clearTimeout(timer);
      socketRef.current?.close();
    };
  }, [id, token, commands]);

  /**
   * Sends a command over the open socket (its result comes back on it, the change broadcast updates
   * the view), or over HTTP while the socket is not open.
   */
  const send = useCallback(
    async (command: Command): Promise<SendResult> => {
      const socket = socketRef.current;
      if (socket && socket.readyState === WebSocket.OPEN) return commands.send(socket, command);
      try {
        await api.command(id, token, command);
        if (!socketRef.current || socketRef.current.readyState !== WebSocket.OPEN) {
          // No live socket: fetch the new state ourselves.
          const [enc, log] = await Promise.all([api.get(id, token), api.events(id, token, seqRef.current)]);
          seqRef.current = Math.max(seqRef.current, enc.seq);
          setLive((l) => ({
            ...l,
            state: share(l.state, enc.state),
            seq: enc.seq,
            entries: mergeEntries(l.entries, log.entries),
          }));
        }
        return { ok: true };
      } catch (e) {
        return {
          ok: false,
          error: errorMessage(e),
          ...(e instanceof ApiFailure ? { code: e.error.code } : {}),
        };
      }
    },
    [id, token, commands],
  );

  return { live, send };
}
