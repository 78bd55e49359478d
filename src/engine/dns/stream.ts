// DNS over a byte stream: TCP (RFC 7766) and TLS (RFC 7858). Messages carry a two-octet
// length prefix; one connection carries many questions at once, told apart by ID, so the
// questions of one look-up share it instead of paying a handshake each.
import { createHash } from 'node:crypto';
import { connect as tcpConnect, type Socket } from 'node:net';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';
import { ExchangeError, failureOf } from './errors';
import { PendingReplies, type Channel } from './replies';

export interface StreamTarget {
  address: string;
  port: number;
  /** TLS: verify the certificate for this name (and send it as SNI when it is not an IP) */
  tls?: { servername: string; ca?: ConnectionOptions['ca'] };
}

/** A short key for a set of trusted CAs (the system's when none), to tell connections apart. */
export function trustKey(ca: ConnectionOptions['ca'] | undefined): string {
  if (ca === undefined) return '';
  const text = Array.isArray(ca) ? ca.map(String).join('\n') : String(ca);
  return createHash('sha256').update(text).digest('hex');
}

export class StreamConnection implements Channel {
  private readonly socket: Socket;
  private readonly replies = new PendingReplies();
  private buffered: Buffer = Buffer.alloc(0);
  private failure: ExchangeError | undefined;
  closed = false;

  constructor(target: StreamTarget) {
    const tls = target.tls;
    const isIpName = tls !== undefined && /^[\d.]+$|:/.test(tls.servername);
    this.socket =
      tls === undefined
        ? tcpConnect({ host: target.address, port: target.port })
        : tlsConnect({
            host: target.address,
            port: target.port,
            // Node checks the certificate against `servername`, else `host`: the name the user
            // gave, never the address it was pinned to (an IP given as such is its own name).
            ...(isIpName ? {} : { servername: tls.servername }),
            ...(tls.ca !== undefined ? { ca: tls.ca } : {}),
            ALPNProtocols: ['dot'],
          });
    this.socket.setNoDelay(true);
    this.socket.on('data', (chunk: Buffer) => this.onData(chunk));
    this.socket.on('error', (err) => this.fail(failureOf(err, target.tls !== undefined)));
    this.socket.on('close', () =>
      this.fail(new ExchangeError('upstream_error', 'The nameserver closed the connection')),
    );
  }

  ask(id: number, query: Buffer): Promise<Buffer> {
    return this.send(id, query, () => this.replies.wait(id));
  }

  /** Sends one query whose answer is many messages (a zone transfer), each to `onMessage`. */
  askMany(id: number, query: Buffer, onMessage: (message: Buffer) => boolean): Promise<void> {
    return this.send(id, query, () => this.replies.waitMany(id, onMessage));
  }

  private send<T>(id: number, query: Buffer, wait: () => Promise<T>): Promise<T> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    if (this.replies.waitsFor(id)) {
      return Promise.reject(new ExchangeError('upstream_error', 'Duplicate query ID'));
    }
    const reply = wait();
    const framed = Buffer.alloc(2 + query.length);
    framed.writeUInt16BE(query.length, 0);
    query.copy(framed, 2);
    this.socket.write(framed);
    return reply;
  }

  forget(id: number): void {
    this.replies.forget(id);
  }

  /** Lets the process exit while this connection is open. */
  unref(): void {
    this.socket.unref();
  }

  waitsFor(id: number): boolean {
    return this.replies.waitsFor(id);
  }

  close(): void {
    this.closed = true;
    this.socket.destroy();
    this.fail(new ExchangeError('upstream_error', 'The connection was closed'));
  }

  private onData(chunk: Buffer): void {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    while (this.buffered.length >= 2) {
      const length = this.buffered.readUInt16BE(0);
      if (this.buffered.length < 2 + length) return;
      const message = this.buffered.subarray(2, 2 + length);
      this.buffered = this.buffered.subarray(2 + length);
      // A message too short to carry an ID cannot be matched: the stream is broken.
      if (message.length < 2) {
        this.fail(new ExchangeError('upstream_error', 'The nameserver sent a malformed answer'));
        this.socket.destroy();
        return;
      }
      // A copy: the view would keep the whole read buffer alive.
      this.replies.deliver(Buffer.from(message));
    }
  }

  private fail(err: ExchangeError): void {
    this.closed = true;
    this.failure ??= err;
    this.replies.failAll(this.failure);
  }
}
