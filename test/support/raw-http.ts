// Raw bytes to a loopback server and everything it sends back until it closes the connection:
// for requests no HTTP client would send (malformed, slow, HTTP/2 prefaces).
import { connect } from 'node:net';

export interface RawReply {
  /** the whole answer as text */
  text: string;
  /** the status code of the first status line, or 0 when nothing came back */
  status: number;
  headers: Record<string, string>;
  /** the body parsed as JSON, or undefined */
  json: Record<string, unknown> | undefined;
}

export function parseRaw(text: string): RawReply {
  const [head, ...rest] = text.split('\r\n\r\n');
  const lines = head.split('\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(lines[0] ?? '')?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const at = line.indexOf(':');
    if (at > 0) headers[line.slice(0, at).toLowerCase()] = line.slice(at + 1).trim();
  }
  let json: Record<string, unknown> | undefined;
  try {
    json = JSON.parse(rest.join('\r\n\r\n')) as Record<string, unknown>;
  } catch {
    json = undefined;
  }
  return { text, status, headers, json };
}

/** Sends `chunks` (a pause of `gapMs` between them) and reads until the server closes. */
export async function rawExchange(
  url: string,
  chunks: Array<string | Buffer>,
  gapMs = 0,
): Promise<RawReply> {
  const { port, hostname } = new URL(url);
  const socket = connect(Number(port), hostname);
  const received: Buffer[] = [];
  socket.on('data', (d: Buffer) => received.push(d));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  for (const chunk of chunks) {
    if (socket.destroyed) break;
    socket.write(chunk);
    if (gapMs > 0) await new Promise((r) => setTimeout(r, gapMs));
  }
  await closed;
  return parseRaw(Buffer.concat(received).toString('latin1'));
}
