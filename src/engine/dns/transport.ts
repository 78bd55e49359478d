// One question to one nameserver, one try: over UDP with EDNS0 (RFC 6891, 1232-byte payload)
// and over TCP only when the answer comes back truncated; or over TLS (RFC 7858) or HTTPS
// (RFC 8484) when the nameserver was given that way. Replies are checked before use: the ID,
// the question, and that the message parses at all; a malformed reply fails the try at once.
//
// `exchange` is the engine's lowest DNS call: the record look-ups (query.ts), DNSSEC
// validation (DO bit, raw RRSIG/DNSKEY/DS/NSEC) and the zone drift (with `transfer`) ask
// through it.
import type { ConnectionOptions } from 'node:tls';
import { LookupError, throwIfAborted } from '../../contract/errors';
import { DatagramChannel } from './datagram';
import { ExchangeError, failureOf } from './errors';
import { sameName, textToLabels, type Labels } from './names';
import { unusedId, type Channel } from './replies';
import { StreamConnection, trustKey, type StreamTarget } from './stream';
import {
  encodeQuery,
  FLAG_QR,
  FLAG_TC,
  parseMessage,
  RCODE,
  TYPE_CODES,
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
}

/**
 * The sockets and connections of one look-up, opened on first need: every question of the
 * look-up to one nameserver shares one UDP socket, and one TCP connection (a single
 * handshake) when it needs one.
 *
 * A session made for one call is closed by it. A session shared by the questions of a whole
 * operation (the DKIM list, an SPF tree, a DNSSEC chain), which has no end of its own to close
 * it at, is made `whileBusy`: each socket closes as soon as no question waits on it, after
 * the current turn of the event loop, so the next level of questions an answer leads to
 * still finds it open.
 *
 * DNS over TLS connections outlive look-ups (`tlsConnections` below): RFC 7858 section 3.4
 * asks clients to reuse them, and a handshake costs more round trips than the question.
 */
export class Session {
  private readonly channels = new Map<string, ChannelEntry>();

  constructor(private readonly lifetime: SessionLifetime = 'untilClosed') {}

  /** Sends the query `build` makes for a free ID on the channel to `target`; its reply. */
  ask(target: ChannelTarget, build: (id: number) => Buffer, end: TryEnd): Promise<Buffer> {
    if (target.kind === 'tls' && this !== tlsConnections) {
      return tlsConnections.ask(target, build, end);
    }
    const { channel, id } = this.claim(target, end);
    return channel.ask(id, build(id));
  }

  /** Like ask, over TCP, for a question answered by many messages (a zone transfer). */
  askMany(
    target: StreamTarget,
    build: (id: number) => Buffer,
    end: TryEnd,
    onMessage: (message: Buffer) => boolean,
  ): Promise<void> {
    const { channel, id } = this.claim({ ...target, kind: 'tcp' }, end);
    if (!(channel instanceof StreamConnection)) throw new Error('a TCP channel is a stream');
    return channel.askMany(id, build(id), onMessage);
  }

  /** The channel to `target` (opened when there is none) and a free ID on it until `end`. */
  private claim(target: ChannelTarget, end: TryEnd): { channel: Channel; id: number } {
    const key = channelKey(target);
    let entry = this.channels.get(key);
    if (entry === undefined || entry.channel.closed) {
      entry = { channel: this.open(target), inFlight: 0 };
      this.channels.set(key, entry);
    }
    const open = entry;
    clearTimeout(open.idle);
    const id = unusedId(open.channel);
    open.inFlight++;
    // However the try ends (answer, timeout, cancel), the ID is let go; the last question on
    // a socket of a session that does not wait for close() lets the socket go in time too.
    end.onEnd(() => {
      open.channel.forget(id);
      open.inFlight--;
      if (open.inFlight === 0 && this.lifetime !== 'untilClosed') this.closeIfIdle(key, open);
    });
    return { channel: open.channel, id };
  }

  close(): void {
    for (const { channel, idle } of this.channels.values()) {
      clearTimeout(idle);
      channel.close();
    }
    this.channels.clear();
  }

  private open(target: ChannelTarget): Channel {
    if (target.kind === 'udp') return new DatagramChannel(target);
    const connection = new StreamConnection(target);
    if (typeof this.lifetime === 'object') {
      // A kept connection never holds the process open; a waiting question's timer does.
      connection.unref();
      if (this.channels.size >= this.lifetime.max) this.dropOldestIdle();
    }
    return connection;
  }

  private closeIfIdle(key: string, entry: ChannelEntry): void {
    const close = () => {
      if (entry.inFlight > 0 || this.channels.get(key) !== entry) return;
      this.channels.delete(key);
      entry.channel.close();
    };
    if (this.lifetime === 'whileBusy') setImmediate(close);
    else if (typeof this.lifetime === 'object') {
      entry.idle = setTimeout(close, this.lifetime.idleMs);
      entry.idle.unref();
    }
  }

  private dropOldestIdle(): void {
    for (const [key, entry] of this.channels) {
      if (entry.inFlight > 0) continue;
      clearTimeout(entry.idle);
      this.channels.delete(key);
      entry.channel.close();
      return;
    }
  }
}

/**
 * `untilClosed`: open until close(); `whileBusy`: each socket closes once idle; kept: each
 * connection closes after `idleMs` idle, at most `max` of them open.
 */
export type SessionLifetime = 'untilClosed' | 'whileBusy' | { idleMs: number; max: number };

type ChannelTarget = StreamTarget & { kind: 'udp' | 'tcp' | 'tls' };

interface ChannelEntry {
  channel: Channel;
  inFlight: number;
  idle?: NodeJS.Timeout;
}

function channelKey(target: ChannelTarget): string {
  const base = `${target.kind}|${target.address}|${target.port}`;
  // A TLS connection is only the same one for the same name checked against the same trust.
  return target.tls === undefined
    ? base
    : `${base}|${target.tls.servername}|${trustKey(target.tls.ca)}`;
}

/** How long an unused DNS over TLS connection is kept, and how many are. */
const DOT_IDLE_MS = 10_000;
const DOT_MAX_CONNECTIONS = 16;
const tlsConnections = new Session({ idleMs: DOT_IDLE_MS, max: DOT_MAX_CONNECTIONS });

/** Closes the DNS over TLS connections kept between look-ups (tests, shutdown). */
export function closeTlsConnections(): void {
  tlsConnections.close();
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
    return await withDeadline(options, async (end) => {
      if (server.transport === 'https') {
        const { askHttps } = await import('./doh');
        return askHttps(ask, server, end);
      }
      if (server.transport === 'tls') {
        return askStream(ask, server, 'tls', end);
      }
      const udp = await askUdp(ask, server, end);
      if ((udp.parsed.flags & FLAG_TC) === 0) return udp;
      return askStream(ask, server, 'tcp', end);
    });
  } finally {
    own?.close();
  }
}

/**
 * A zone transfer (AXFR, RFC 5936) over TCP: every message of the answer, checked, to
 * `onMessage` until it returns true. The whole transfer runs under `options.timeoutMs`.
 * Throws ExchangeError (timeout, refused, malformed, a message of another question) or
 * cancelled, or what `onMessage` throws.
 */
export async function transfer(
  question: Question,
  server: { address: string; port: number },
  options: ExchangeOptions,
  onMessage: (reply: Reply) => boolean,
): Promise<void> {
  throwIfAborted(options.signal);
  const name = typeof question.name === 'string' ? textToLabels(question.name) : question.name;
  const type = typeof question.type === 'number' ? question.type : TYPE_CODES[question.type];
  const session = new Session();
  const ask: Ask = { name, type, options, session };
  try {
    await withDeadline(options, (end) =>
      session.askMany(
        { address: server.address, port: server.port },
        (id) => encodeQuery(id, name, type, { ...options, edns: false }),
        end,
        // RFC 5936 section 2.2.1: messages after the first may leave the question out
        (message) => onMessage(checkReply(message, ask, 'tcp', true)),
      ),
    );
  } finally {
    session.close();
  }
}

export interface Ask {
  name: Labels;
  type: number;
  options: ExchangeOptions;
  session: Session;
}

/**
 * The end of one try, for what must let go of it then: a question waiting on a shared socket,
 * a DoH request. Lighter than an AbortController, of which every question would make one.
 */
export class TryEnd {
  private hooks: Array<() => void> | undefined;
  private over = false;

  get ended(): boolean {
    return this.over;
  }

  /** Runs `hook` when the try ends (at once if it has). */
  onEnd(hook: () => void): void {
    if (this.over) hook();
    else (this.hooks ??= []).push(hook);
  }

  end(): void {
    if (this.over) return;
    this.over = true;
    for (const hook of this.hooks ?? []) hook();
    this.hooks = undefined;
  }
}

/** Runs one try under its timer and the caller's signal; both end it with a LookupError. */
function withDeadline<T>(options: ExchangeOptions, work: (end: TryEnd) => Promise<T>): Promise<T> {
  const tryEnd = new TryEnd();
  return new Promise<T>((resolve, reject) => {
    // A cancelled try lets go of its timer at once: a server cut at shutdown must not keep
    // the process alive until the try would have timed out.
    const fail = (err: LookupError) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      tryEnd.end();
      reject(err);
    };
    const onAbort = () =>
      fail(
        new LookupError('cancelled', 'The request was cancelled', {
          cause: options.signal?.reason,
        }),
      );
    const timer = setTimeout(
      () => fail(new ExchangeError('upstream_timeout', 'The nameserver did not answer in time')),
      options.timeoutMs ?? DNS_TIMEOUT_MS,
    );
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const settle = () => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      tryEnd.end();
    };
    work(tryEnd).then(
      (value) => {
        settle();
        resolve(value);
      },
      (err: unknown) => {
        settle();
        reject(err instanceof LookupError ? err : failureOf(err, false));
      },
    );
  });
}

/** A reply to our query, or why it is not one (the ID was already matched). */
export function checkReply(
  message: Buffer,
  ask: Ask,
  transport: Reply['transport'],
  questionOptional = false,
): Reply {
  const parsed = parseMessage(message);
  const q = parsed.question;
  if ((parsed.flags & FLAG_QR) === 0) {
    throw new ExchangeError('upstream_error', 'The nameserver sent a query, not an answer');
  }
  // An error reply may leave the question out (RFC 1035 leaves FORMERR unspecified).
  const withoutQuestion =
    q === undefined &&
    (questionOptional || (parsed.rcode !== RCODE.NOERROR && parsed.rcode !== RCODE.NXDOMAIN));
  if (!withoutQuestion && (q === undefined || q.type !== ask.type || !sameName(q.name, ask.name))) {
    throw new ExchangeError('upstream_error', 'The nameserver answered another question');
  }
  return { message, parsed, transport };
}

function askUdp(ask: Ask, server: NameServer, end: TryEnd): Promise<Reply> {
  return askOn({ kind: 'udp', address: server.address, port: server.port }, ask, 'udp', end);
}

function askStream(
  ask: Ask,
  server: NameServer,
  transport: 'tcp' | 'tls',
  end: TryEnd,
): Promise<Reply> {
  const target: StreamTarget & { kind: 'tcp' | 'tls' } = {
    kind: transport,
    address: server.address,
    port: server.port,
  };
  if (transport === 'tls' && server.transport === 'tls') {
    target.tls = { servername: server.servername, ca: ask.options.ca };
  }
  return askOn(target, ask, transport, end);
}

async function askOn(
  target: ChannelTarget,
  ask: Ask,
  transport: 'udp' | 'tcp' | 'tls',
  end: TryEnd,
): Promise<Reply> {
  const message = await ask.session.ask(
    target,
    (id) => encodeQuery(id, ask.name, ask.type, ask.options),
    end,
  );
  return checkReply(message, ask, transport);
}
