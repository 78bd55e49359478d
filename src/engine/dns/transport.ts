// One question to one nameserver, one try: over UDP with EDNS0 (RFC 6891, 1232-byte payload)
// and over TCP only when the answer comes back truncated; or over TLS (RFC 7858) or HTTPS
// (RFC 8484) when the nameserver was given that way. Replies are checked before use: the ID,
// the question, and that the message parses at all; a malformed reply fails the try at once.
//
// `exchange` is the engine's lowest DNS call: the record look-ups (query.ts) and DNSSEC
// validation (DO bit, raw RRSIG/DNSKEY/DS/NSEC) both ask through it.
import { randomInt } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { isIP } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import * as packet from 'dns-packet';
import { LookupError, throwIfAborted } from '../../contract/errors';
import { ExchangeError, failureOf } from './errors';
import { textToLabels } from './presentation';
import { StreamConnection, type StreamTarget } from './stream';
import {
  encodeQuery,
  FLAG_QR,
  FLAG_TC,
  parseMessage,
  RCODE,
  sameName,
  TYPE_CODES,
  type Labels,
  type QueryMessageOptions,
  type WireMessage,
} from './wire';
import { DNS_TIMEOUT_MS } from '../../contract/limits';

/** A nameserver to ask, its address already resolved (and checked by the guard). */
export type NameServer =
  | { transport: 'dns'; address: string; port: number }
  | { transport: 'tls'; address: string; port: number; servername: string }
  | { transport: 'https'; address: string; port: number; url: string };

export interface Question {
  /** presentation form (escapes read) or label bytes */
  name: string | Labels;
  /** a type name the engine knows (A, TXT, DNSKEY, ...) or its number */
  type: keyof typeof TYPE_CODES | number;
}

export interface ExchangeOptions extends QueryMessageOptions {
  signal?: AbortSignal;
  /** for this try, UDP and a TCP fallback included (default DNS_TIMEOUT_MS) */
  timeoutMs?: number;
  /** connections to reuse between the questions of one look-up; one of its own otherwise */
  session?: Session;
  /** trust for DoT and DoH: these CAs instead of the system's (tests, private resolvers) */
  ca?: ConnectionOptions['ca'];
}

export interface Reply {
  /** the reply as received */
  message: Buffer;
  /** header, question, records with their names as bytes */
  parsed: WireMessage;
  transport: 'udp' | 'tcp' | 'tls' | 'https';
  /** the reply decoded by dns-packet (every record type it knows: RRSIG, DNSKEY, NSEC...) */
  readonly packet: packet.Packet;
}

/**
 * The TCP and TLS connections of one look-up, opened on first need and closed together, so
 * every question of the look-up that needs one shares a single handshake.
 */
export class Session {
  private readonly streams = new Map<string, StreamConnection>();

  stream(target: StreamTarget): StreamConnection {
    const key = `${target.tls ? 'tls' : 'tcp'}|${target.address}|${target.port}`;
    const open = this.streams.get(key);
    if (open !== undefined && !open.closed) return open;
    const fresh = new StreamConnection(target);
    this.streams.set(key, fresh);
    return fresh;
  }

  close(): void {
    for (const stream of this.streams.values()) stream.close();
    this.streams.clear();
  }
}

/** Asks one question once. Throws ExchangeError (timeout, refused, malformed) or cancelled. */
export async function exchange(
  question: Question,
  server: NameServer,
  options: ExchangeOptions = {},
): Promise<Reply> {
  throwIfAborted(options.signal);
  const name = typeof question.name === 'string' ? textToLabels(question.name) : question.name;
  const type = typeof question.type === 'number' ? question.type : TYPE_CODES[question.type];
  const own = options.session === undefined ? new Session() : undefined;
  const session = options.session ?? own!;
  const ask: Ask = { name, type, options, session };
  try {
    return await withDeadline(options, async (signal) => {
      if (server.transport === 'https') {
        const { askHttps } = await import('./doh');
        return askHttps(ask, server, signal);
      }
      if (server.transport === 'tls') {
        return askStream(ask, server, 'tls', signal);
      }
      const udp = await askUdp(ask, server, signal);
      if ((udp.parsed.flags & FLAG_TC) === 0) return udp;
      return askStream(ask, server, 'tcp', signal);
    });
  } finally {
    own?.close();
  }
}

export interface Ask {
  name: Labels;
  type: number;
  options: ExchangeOptions;
  session: Session;
}

/** Runs one try under its timer and the caller's signal; both end it with a LookupError. */
function withDeadline<T>(
  options: ExchangeOptions,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  return new Promise<T>((resolve, reject) => {
    const end = (err: LookupError) => {
      controller.abort(err);
      reject(err);
    };
    const onAbort = () =>
      end(
        new LookupError('cancelled', 'The request was cancelled', {
          cause: options.signal?.reason,
        }),
      );
    const timer = setTimeout(
      () => end(new ExchangeError('upstream_timeout', 'The nameserver did not answer in time')),
      options.timeoutMs ?? DNS_TIMEOUT_MS,
    );
    options.signal?.addEventListener('abort', onAbort, { once: true });
    work(controller.signal)
      .then(resolve, (err: unknown) =>
        reject(err instanceof LookupError ? err : failureOf(err, false)),
      )
      .finally(() => {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        controller.abort();
      });
  });
}

/** A reply to our query, or why it is not one (the ID was already matched). */
export function checkReply(message: Buffer, ask: Ask, transport: Reply['transport']): Reply {
  const parsed = parseMessage(message);
  const q = parsed.question;
  if ((parsed.flags & FLAG_QR) === 0) {
    throw new ExchangeError('upstream_error', 'The nameserver sent a query, not an answer');
  }
  // An error reply may leave the question out (RFC 1035 leaves FORMERR unspecified).
  const errorWithoutQuestion =
    q === undefined && parsed.rcode !== RCODE.NOERROR && parsed.rcode !== RCODE.NXDOMAIN;
  if (
    !errorWithoutQuestion &&
    (q === undefined || q.type !== ask.type || !sameName(q.name, ask.name))
  ) {
    throw new ExchangeError('upstream_error', 'The nameserver answered another question');
  }
  let decoded: packet.Packet | undefined;
  return {
    message,
    parsed,
    transport,
    get packet() {
      // Decoded on first use only: the record look-ups never need it.
      decoded ??= packet.decode(message);
      return decoded;
    },
  };
}

function newId(): number {
  return randomInt(0, 0x10000);
}

function askUdp(ask: Ask, server: NameServer, signal: AbortSignal): Promise<Reply> {
  const id = newId();
  const query = encodeQuery(id, ask.name, ask.type, ask.options);
  // A connected socket takes datagrams from the nameserver's address and port only, and
  // reports an ICMP port-unreachable as ECONNREFUSED instead of silence.
  const socket = createSocket(isIP(server.address) === 6 ? 'udp6' : 'udp4');
  return new Promise<Reply>((resolve, reject) => {
    const done = () => {
      signal.removeEventListener('abort', done);
      socket.removeAllListeners('message');
      socket.on('error', () => undefined);
      try {
        socket.close();
      } catch {
        // already closed
      }
    };
    signal.addEventListener('abort', done, { once: true });
    socket.on('error', (err) => {
      done();
      reject(failureOf(err, false));
    });
    socket.on('message', (message: Buffer) => {
      // Not our ID: a late answer to an earlier try, or forged. Keep waiting for ours.
      if (message.length >= 2 && message.readUInt16BE(0) !== id) return;
      done();
      try {
        resolve(checkReply(message, ask, 'udp'));
      } catch (err) {
        reject(err instanceof LookupError ? err : failureOf(err, false));
      }
    });
    socket.connect(server.port, server.address, () => {
      if (signal.aborted) return;
      socket.send(query);
    });
  });
}

async function askStream(
  ask: Ask,
  server: NameServer,
  transport: 'tcp' | 'tls',
  signal: AbortSignal,
): Promise<Reply> {
  const target: StreamTarget = { address: server.address, port: server.port };
  if (transport === 'tls' && server.transport === 'tls') {
    target.tls = { servername: server.servername, ca: ask.options.ca };
  }
  const connection = ask.session.stream(target);
  const id = newId();
  const query = encodeQuery(id, ask.name, ask.type, ask.options);
  const forget = () => connection.forget(id);
  signal.addEventListener('abort', forget, { once: true });
  try {
    return checkReply(await connection.ask(id, query), ask, transport);
  } finally {
    signal.removeEventListener('abort', forget);
  }
}
