// RFC 3912 WHOIS over TCP port 43: one query line, the server answers and closes. Bounded in
// every direction (connect time, total time, bytes), and decoding never throws.
import { isIP, Socket } from 'node:net';
import { LookupError, throwIfAborted } from '../../contract/errors';
import {
  blockedTarget,
  checkConnected,
  guardedLookup,
  type AddressGuard,
  type ResolveAll,
} from '../guard';
import type { WhoisResult } from '../../contract/shapes';
import table from './data/whois-servers.json';
import { findReferral, isVerdict, parseWhois, verdictError } from './parse';

export const MAX_REPLY_BYTES = 1024 * 1024;
export const MAX_REFERRAL_HOPS = 3;
const IANA_WHOIS = 'whois.iana.org';

export interface Port43Options {
  /** the caller's: aborting it is `cancelled` */
  signal?: AbortSignal;
  /** the whole look-up's deadline: firing is `upstream_timeout` */
  deadline?: AbortSignal;
  /** default 5 s */
  connectTimeoutMs?: number;
  /** for one server's reply, default 15 s */
  totalTimeoutMs?: number;
  /** default 1 MB */
  maxBytes?: number;
  /** "host:port" that every query is sent to, whatever server it is meant for */
  serverOverride?: string;
  /** the TLD asked about: which legacy character set a reply that is not UTF-8 is read in */
  tld?: string;
  /** server mode: every server (registry, IANA, referral, override) must pass it */
  guard?: AddressGuard;
  /** resolves server names (tests); default the system resolver */
  resolveAll?: ResolveAll;
}

// The legacy character sets of the registries that still answer in one, by TLD: a reply that
// is not UTF-8 from these is read in its country's set, so names and addresses stay text.
const LEGACY_CHARSETS: Record<string, string> = {
  jp: 'euc-jp',
  kr: 'euc-kr',
  cn: 'gb18030',
  tw: 'big5',
  hk: 'big5',
  ru: 'koi8-r',
  su: 'koi8-r',
  'xn--p1ai': 'koi8-r',
};

/**
 * The bytes of a reply as text, never throwing: ISO-2022-JP when it shifts into JIS (JPRS's
 * Japanese replies; 7-bit, so it would pass for ASCII), else UTF-8 when the bytes are valid
 * UTF-8, else the TLD's legacy set when it has one, else Latin-1 (which keeps every byte).
 */
export function decodeReply(bytes: Uint8Array, tld?: string): string {
  if (hasJisShift(bytes)) {
    try {
      return new TextDecoder('iso-2022-jp').decode(bytes);
    } catch {
      // fall through to the other readings
    }
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const legacy = tld === undefined ? undefined : LEGACY_CHARSETS[tld.toLowerCase()];
    if (legacy !== undefined) {
      try {
        return new TextDecoder(legacy, { fatal: true }).decode(bytes);
      } catch {
        // not that set either
      }
    }
    return Buffer.from(bytes).toString('latin1');
  }
}

/** ESC $ B or ESC $ @: a shift into JIS X 0208 (ISO-2022-JP). */
function hasJisShift(bytes: Uint8Array): boolean {
  let i = bytes.indexOf(0x1b);
  while (i >= 0 && i + 2 < bytes.length) {
    if (bytes[i + 1] === 0x24 && (bytes[i + 2] === 0x42 || bytes[i + 2] === 0x40)) return true;
    i = bytes.indexOf(0x1b, i + 1);
  }
  return false;
}

/** The query line a server expects for a domain; most take the bare name. */
export function queryLine(server: string, domain: string): string {
  const host = server.replace(/:\d+$/, '').toLowerCase();
  if (host === 'whois.verisign-grs.com' || host === 'ccwhois.verisign-grs.com')
    return `domain ${domain}`;
  if (host === 'whois.denic.de') return `-T dn,ace ${domain}`;
  if (host === 'whois.jprs.jp') return `${domain}/e`;
  if (host === 'whois.nic.ad.jp') return `${domain}/e`;
  return domain;
}

/** The registry's port-43 server for a TLD from the bundled table, if it lists one. */
export function tableServer(tld: string): string | undefined {
  const servers = (table as { servers: Record<string, string> }).servers;
  return Object.prototype.hasOwnProperty.call(servers, tld) ? servers[tld] : undefined;
}

function splitHostPort(target: string): { host: string; port: number } {
  const bracket = /^\[([^\]]+)\](?::(\d+))?$/.exec(target);
  if (bracket) return { host: bracket[1], port: bracket[2] ? Number(bracket[2]) : 43 };
  const m = /^([^:]+)(?::(\d+))?$/.exec(target);
  if (!m) throw new LookupError('invalid_server', `"${target}" is not host:port`);
  const port = m[2] ? Number(m[2]) : 43;
  if (!(port > 0 && port < 65536))
    throw new LookupError('invalid_server', `Bad port in "${target}"`);
  return { host: m[1], port };
}

/** Sends one query and resolves with the whole reply, decoded. */
export function queryServer(
  server: string,
  query: string,
  options: Port43Options = {},
): Promise<string> {
  throwIfAborted(options.signal);
  if (options.deadline?.aborted) return Promise.reject(deadlinePassed());
  const { host, port } = splitHostPort(options.serverOverride ?? server);
  // net.connect takes an IP literal as it is, without the look-up that carries the guard.
  const refused = isIP(host) !== 0 ? options.guard?.refusal(host) : undefined;
  if (refused !== undefined) return Promise.reject(blockedTarget(refused));
  const maxBytes = options.maxBytes ?? MAX_REPLY_BYTES;
  const connectMs = options.connectTimeoutMs ?? 5000;
  const totalMs = options.totalTimeoutMs ?? 15000;
  return new Promise<string>((resolve, reject) => {
    const socket = new Socket();
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (err: LookupError | undefined, text?: string): void => {
      if (done) return;
      done = true;
      clearTimeout(connectTimer);
      clearTimeout(totalTimer);
      options.signal?.removeEventListener('abort', onAbort);
      options.deadline?.removeEventListener('abort', onDeadline);
      socket.destroy();
      if (err) reject(err);
      else resolve(text ?? '');
    };
    const onAbort = (): void =>
      finish(
        new LookupError('cancelled', 'The request was cancelled', {
          cause: options.signal?.reason,
        }),
      );
    const connectTimer = setTimeout(
      () =>
        finish(
          new LookupError('upstream_timeout', `No connection to ${server} within ${connectMs} ms`),
        ),
      connectMs,
    );
    const totalTimer = setTimeout(
      () =>
        finish(
          new LookupError(
            'upstream_timeout',
            `${server} did not finish its reply within ${totalMs} ms`,
          ),
        ),
      totalMs,
    );
    const onDeadline = (): void => finish(deadlinePassed());
    options.signal?.addEventListener('abort', onAbort, { once: true });
    options.deadline?.addEventListener('abort', onDeadline, { once: true });
    socket.once('connect', () => {
      clearTimeout(connectTimer);
      try {
        checkConnected(socket, options.guard);
      } catch (err) {
        finish(err as LookupError);
        return;
      }
      socket.write(`${query}\r\n`);
    });
    socket.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        finish(new LookupError('response_too_large', `${server} sent more than ${maxBytes} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    socket.once('end', () => finish(undefined, decodeReply(Buffer.concat(chunks), options.tld)));
    // The guard's refusal comes through the look-up as it is (blocked_target).
    socket.once('error', (err) =>
      finish(
        err instanceof LookupError
          ? err
          : new LookupError('upstream_error', `Could not query ${server}`, { cause: err }),
      ),
    );
    const lookup =
      options.guard !== undefined || options.resolveAll !== undefined
        ? guardedLookup(options.guard, options.resolveAll)
        : undefined;
    socket.connect({ host, port, ...(lookup ? { lookup } : {}) });
  });
}

function deadlinePassed(): LookupError {
  return new LookupError('upstream_timeout', 'The WHOIS look-up did not finish in time');
}

/** The registry server for a TLD: the bundled table, else IANA's `refer:` for it. */
export async function registryServer(tld: string, options: Port43Options = {}): Promise<string> {
  const known = tableServer(tld);
  if (known !== undefined) return known;
  const text = await queryServer(IANA_WHOIS, tld, options);
  const refer = findReferral(text);
  if (refer === undefined) {
    // A TLD IANA lists with no WHOIS server (several ccTLDs publish none) says nothing about
    // whether a name under it is registered: only a TLD IANA does not know makes it not found.
    if (/^domain:\s*\S/im.test(text)) {
      throw new LookupError('upstream_error', `.${tld} publishes no WHOIS server`);
    }
    throw new LookupError('not_found', `No WHOIS server is known for .${tld}`);
  }
  return refer;
}

export interface Port43Answer {
  result: WhoisResult;
  /** the servers asked, in order */
  servers: string[];
}

/**
 * Asks the registry, then follows its referral to the registrar (at most MAX_REFERRAL_HOPS
 * hops, never the same server twice). The registry's answer decides registered / not found /
 * rate limited; a registrar that fails only loses its extra detail.
 */
export async function lookupPort43(
  domain: string,
  options: Port43Options = {},
): Promise<Port43Answer> {
  const tld = domain.slice(domain.lastIndexOf('.') + 1);
  let server = await registryServer(tld, options);
  const servers: string[] = [];
  const texts: string[] = [];
  let result: WhoisResult | undefined;
  for (let hop = 0; hop <= MAX_REFERRAL_HOPS; hop++) {
    servers.push(server.toLowerCase());
    let text: string;
    try {
      text = await queryServer(server, queryLine(server, domain), { ...options, tld });
    } catch (err) {
      if (result === undefined || (err instanceof LookupError && err.code === 'cancelled'))
        throw err;
      break;
    }
    const parsed = parseWhois([...texts, text].join('\n\n'), { domain });
    // The registry's verdict (not found, refused, no data) is the caller's answer; a
    // registrar's only ends the referrals, keeping the registry's result.
    if (isVerdict(parsed)) {
      if (result === undefined) throw verdictError(parsed);
      break;
    }
    texts.push(text);
    result = parsed;
    const next = findReferral(text);
    if (next === undefined || servers.includes(next.toLowerCase())) break;
    server = next;
  }
  if (result === undefined) throw new LookupError('upstream_error', 'No WHOIS server answered');
  const consulted = servers[texts.length - 1].replace(/:\d+$/, '');
  result.domain.whois_server ??= consulted;
  result.raw = texts.join('\n\n');
  return { result, servers: servers.slice(0, texts.length) };
}
