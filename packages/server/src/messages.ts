import type { ServerMessage } from '@roundkeeper/engine';

/**
 * Every message the server writes on a live socket is a member of the engine's `ServerMessage` union
 * (engine/src/wire.ts), the same union the page reads with `parseServerMessage`. A message is built as a
 * typed object and written with `messageText`; the two the server writes most (a change for each kind of
 * viewer, the pieces of a resume) splice JSON already written once for many sockets into a message
 * whose field names are checked against the union by `rawMessage`.
 */

/** The text of a message the server sends. */
export function messageText(message: ServerMessage): string {
  return JSON.stringify(message);
}

type RequiredKeys<M> = { [K in keyof M]-?: object extends Pick<M, K> ? never : K }[keyof M];
type OptionalKeys<M> = Exclude<keyof M, RequiredKeys<M>>;

/**
 * A message's fields as JSON texts already written: each of the member's required fields, any of its
 * optional ones, and no other (`type` is written from the member's own literal).
 */
export type RawFields<M extends ServerMessage> = { [K in Exclude<RequiredKeys<M>, 'type'>]: string } & {
  [K in OptionalKeys<M>]?: string;
};

/**
 * A message of the union from its fields' JSON texts, in the order given: the same text `messageText`
 * writes for the object they stand for, without serialising again what many sockets share.
 */
export function rawMessage<M extends ServerMessage>(type: M['type'], fields: RawFields<M>): string {
  let text = `{"type":"${type}"`;
  for (const [key, json] of Object.entries(fields) as Array<[string, string | undefined]>) {
    if (json !== undefined) text += `,"${key}":${json}`;
  }
  return `${text}}`;
}
