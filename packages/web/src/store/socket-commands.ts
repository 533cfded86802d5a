import { type Command, clientMessageText, type ResultMessage } from '@roundkeeper/engine';
import type { SendResult } from './encounter-store.js';

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

  /**
   * Fails what `socket` leaves unanswered when it closes. (Its results come through the page's one
   * dispatcher of server messages: `received`.)
   */
  attach(socket: WebSocket): void {
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
      socket.send(clientMessageText({ type: 'command', id, command }));
    });
  }

  /** A result the server sent: settles the command with its id. */
  received(msg: ResultMessage): void {
    if (msg.ok) {
      this.finish(msg.id, { ok: true });
      return;
    }
    this.finish(msg.id, { ok: false, error: msg.error.message, code: msg.error.code });
  }

  private finish(id: string, result: SendResult): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    clearTimeout(p.timer);
    p.done(result);
  }
}
