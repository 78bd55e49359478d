// DNS over UDP: one connected socket carries the questions of one look-up to one nameserver,
// told apart by ID. One socket per question cost a socket, a bind, a connect and a close each
// (38 of them for the default DKIM list), several milliseconds in a cold process.
//
// A connected socket takes datagrams from the nameserver's address and port only, and reports
// an ICMP port-unreachable as ECONNREFUSED instead of silence. Sharing the source port across
// the questions of a look-up is what stub resolvers do (glibc asks A and AAAA on one socket); a
// forged answer must still match the port, a waiting ID and that question (transport.ts).
import { createSocket, type Socket } from 'node:dgram';
import { isIP } from 'node:net';
import { ExchangeError, failureOf } from './errors';
import { PendingReplies, type Channel } from './replies';

export class DatagramChannel implements Channel {
  private readonly socket: Socket;
  private readonly replies = new PendingReplies();
  private connected = false;
  /** queries asked before the socket was connected, sent once it is */
  private readonly queued: Array<{ id: number; query: Buffer }> = [];
  private failure: ExchangeError | undefined;
  closed = false;

  constructor(target: { address: string; port: number }) {
    this.socket = createSocket(isIP(target.address) === 6 ? 'udp6' : 'udp4');
    this.socket.on('message', (message: Buffer) => {
      if (message.length >= 2) this.replies.deliver(message);
    });
    this.socket.on('error', (err) => this.fail(failureOf(err, false)));
    // A connect that fails (no route to the address: a global IPv6 address on an IPv4-only
    // host, ::7f00:1) reports to this callback only; the socket is then unconnected, and a send
    // on it would throw ERR_SOCKET_BAD_PORT out of the event loop.
    this.socket.connect(target.port, target.address, (err?: Error) => {
      if (err) {
        this.fail(failureOf(err, false));
        return;
      }
      this.connected = true;
      for (const { id, query } of this.queued.splice(0)) {
        if (this.replies.waitsFor(id)) this.send(query);
      }
    });
  }

  ask(id: number, query: Buffer): Promise<Buffer> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    if (this.replies.waitsFor(id)) {
      return Promise.reject(new ExchangeError('upstream_error', 'Duplicate query ID'));
    }
    const reply = this.replies.wait(id);
    if (this.connected) this.send(query);
    else this.queued.push({ id, query });
    return reply;
  }

  /**
   * The kernel reports an ICMP port-unreachable for an earlier datagram as the error of the
   * next call on the socket: when that call is a send, only its callback hears of it.
   */
  private send(query: Buffer): void {
    try {
      this.socket.send(query, (err) => {
        if (err) this.fail(failureOf(err, false));
      });
    } catch (err) {
      // A socket closed or never connected throws instead of calling back.
      this.fail(failureOf(err, false));
    }
  }

  forget(id: number): void {
    this.replies.forget(id);
  }

  waitsFor(id: number): boolean {
    return this.replies.waitsFor(id);
  }

  close(): void {
    if (this.closed) return;
    this.fail(new ExchangeError('upstream_error', 'The socket was closed'));
  }

  private fail(err: ExchangeError): void {
    this.failure ??= err;
    this.replies.failAll(this.failure);
    if (this.closed) return;
    this.closed = true;
    this.queued.length = 0;
    this.socket.removeAllListeners('message');
    // An error after closing (a late ICMP report) has nobody left to tell.
    this.socket.on('error', () => undefined);
    try {
      this.socket.close();
    } catch {
      // never bound: nothing to close
    }
  }
}
