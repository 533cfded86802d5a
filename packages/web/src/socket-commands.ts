import type { Command } from '@roundkeeper/engine';
import type { SendResult } from './live.js';

/** A reply the server sends for a command that came over the socket (docs/api.md, "Live"). */
interface ResultMessage {
  id?: unknown;
  ok?: unknown;
  error?: { code?: unknown; message?: unknown };
}

const RESULT_HEAD = '{"type":"result"';

/** How long a command over the socket may go unanswered before the page says so. */
const ANSWER_MS = 15_000;

/**
 * Commands sent over the live socket, each answered by a `result` message with its id: no HTTP request,
 * no second authorization, the socket the page already has. A command the socket loses (it closes
 * before the answer) is reported as unknown, never sent again on its own: the server may have
 * decided it, and a `next` sent twice would pass two turns.
 */
export class SocketCommands {
  private readonly pending = new Map<
    string,
    { socket: WebSocket; done: (r: SendResult) => void; timer: ReturnType<typeof setTimeout> }
  >();
  private count = 0;

  /** Listens to `socket` for results, and fails what it leaves unanswered when it closes. */
  attach(socket: WebSocket): void {
    socket.addEventListener('message', (ev) => {
      // Only results are read here (changes are the page's): a look at the head, not a parse.
      if (typeof ev.data === 'string' && ev.data.startsWith(RESULT_HEAD)) this.received(ev.data);
    });
    socket.addEventListener('close', () => {
      for (const [id, p] of this.pending) {
        if (p.socket !== socket) continue;
        this.finish(id, {
          ok: false,
          error:
            'The connection dropped before the server answered, so this may or may not have been done: check the log before trying again.',
        });
      }
    });
  }

  send(socket: WebSocket, command: Command): Promise<SendResult> {
    const id = `c${++this.count}`;
    return new Promise((done) => {
      const timer = setTimeout(
        () =>
          this.finish(id, {
            ok: false,
            error:
              'The server has not answered yet, so this may or may not have been done: check the log before trying again.',
          }),
        ANSWER_MS,
      );
      this.pending.set(id, { socket, done, timer });
      socket.send(JSON.stringify({ type: 'command', id, command }));
    });
  }

  private received(text: string): void {
    let msg: ResultMessage;
    try {
      msg = JSON.parse(text) as ResultMessage;
    } catch {
      return;
    }
    if (typeof msg.id !== 'string') return;
    if (msg.ok === true) {
      this.finish(msg.id, { ok: true });
      return;
    }
    const message = typeof msg.error?.message === 'string' ? msg.error.message : 'The server refused this.';
    this.finish(msg.id, {
      ok: false,
      error: message,
      ...(typeof msg.error?.code === 'string' ? { code: msg.error.code } : {}),
    });
  }

  private finish(id: string, result: SendResult): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    clearTimeout(p.timer);
    p.done(result);
  }
}
