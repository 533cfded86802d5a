/**
 * A WebSocket text frame (RFC 6455 §5.2) as one buffer: FIN and the text opcode, the payload's length,
 * then the payload as UTF-8. A server's frames are never masked, so the same bytes are right for every
 * socket: a change many viewers get is framed once and each socket writes it in one `write` (the `ws`
 * library frames each send again and writes its header and payload as two chunks).
 */
export function textFrame(text: string): Buffer {
  const length = Buffer.byteLength(text);
  const header = length < 126 ? 2 : length < 65_536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(header + length);
  frame[0] = 0x81;
  if (header === 2) frame[1] = length;
  else if (header === 4) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
  frame.write(text, header, 'utf8');
  return frame;
}
