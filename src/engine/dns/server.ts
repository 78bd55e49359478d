// The `server` parameter of the domain service (docs/contract.md): an IPv4 or IPv6 address,
// optionally with a port, or a nameserver host name that is resolved first with the system
// resolver; additively, a DNS-over-TLS (`tls://host[:853]`, RFC 7858) or DNS-over-HTTPS
// (`https://host[:port]/path`, RFC 8484) resolver. In server mode every address it comes to
// passes the same guard as web fetches.
import { promises as dns, getServers } from 'node:dns';
import { isIP } from 'node:net';
import { LookupError, throwIfAborted } from '../../contract/errors';
import { normalizeHost } from '../names';
import type { AddressGuard } from '../guard';
import type { NameServer } from './transport';
import { printable } from '../../contract/errors';

export const DEFAULT_DNS_PORT = 53;

export const DEFAULT_DOT_PORT = 853;
export const DEFAULT_DOH_PORT = 443;

export interface ParsedServer {
  /** an IP address, or a host name (A-labels, lower case) when `family` is 0 */
  address: string;
  port: number;
  family: 0 | 4 | 6;
  /** additive: `tls` for DNS over TLS, `https` for DNS over HTTPS; plain DNS when absent */
  transport?: 'tls' | 'https';
  /** DNS over HTTPS: the resolver's URL */
  url?: string;
}

/** Resolves a nameserver host name to its addresses (the system resolver by default). */
export type ServerLookup = (hostname: string) => Promise<string[]>;

/** Parses a `server` value without touching the network. Throws `invalid_server`. */
export function parseServer(input: string): ParsedServer {
  const invalid = () =>
    new LookupError(
      'invalid_server',
      `"${printable(String(input))}" is not an IP address, an [IPv6]:port, a host name, tls://host or https://host/path`,
    );
  if (typeof input !== 'string') throw invalid();
  const text = input.trim();
  if (text === '') throw invalid();
  if (/^tls:\/\//i.test(text)) return parseTls(text.slice(6), invalid);
  if (/^https:\/\//i.test(text)) return parseHttps(text, invalid);
  return parseHostPort(text, DEFAULT_DNS_PORT, invalid);
}

/** `tls://host[:port]`: nothing after the authority. */
function parseTls(rest: string, invalid: () => LookupError): ParsedServer {
  if (rest === '' || /[/?#@]/.test(rest)) throw invalid();
  return { ...parseHostPort(rest, DEFAULT_DOT_PORT, invalid), transport: 'tls' };
}

/** `https://host[:port]/path[?query]`: no credentials, no fragment. */
function parseHttps(text: string, invalid: () => LookupError): ParsedServer {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid();
  }
  if (url.username !== '' || url.password !== '' || url.hash !== '' || /#/.test(text)) {
    throw invalid();
  }
  const port = url.port === '' ? DEFAULT_DOH_PORT : Number(url.port);
  // WHATWG URL has already brought the host to A-labels (and an IPv6 one into brackets).
  const parsed = parseHostPort(`${url.hostname}:${port}`, port, invalid);
  return { ...parsed, transport: 'https', url: url.href };
}

function parseHostPort(
  text: string,
  defaultPort: number,
  invalid: () => LookupError,
): ParsedServer {
  const bracketed = /^\[([^\]]+)\](?::([^:]*))?$/.exec(text);
  if (bracketed !== null) {
    const address = bracketed[1];
    if (isIP(address) !== 6) throw invalid();
    return { address, port: parsePort(bracketed[2], defaultPort, invalid), family: 6 };
  }
  const family = isIP(text);
  if (family !== 0) return { address: text, port: defaultPort, family: family === 4 ? 4 : 6 };

  // With one colon the part after it is a port; more colons without brackets is not an address.
  const colon = text.split(':');
  if (colon.length > 2) throw invalid();
  const [host = '', portText] = colon;
  const port = parsePort(portText, defaultPort, invalid);
  const hostFamily = isIP(host);
  if (hostFamily === 4) return { address: host, port, family: 4 };
  let name: string;
  try {
    name = normalizeHost(host);
  } catch {
    throw invalid();
  }
  // A last label of digits is a mistyped address (300.1.1.1, 10.0.1), never a real name.
  if (name === '.' || /^\d+$/.test(name.slice(name.lastIndexOf('.') + 1))) throw invalid();
  return { address: name, port, family: 0 };
}

function parsePort(
  text: string | undefined,
  defaultPort: number,
  invalid: () => LookupError,
): number {
  if (text === undefined) return defaultPort;
  if (!/^\d{1,5}$/.test(text)) throw invalid();
  const port = Number(text);
  if (port < 1 || port > 65535) throw invalid();
  return port;
}

/** "1.2.3.4:53" / "[::1]:53", the form Resolver.setServers accepts with a port. */
export function formatServer(address: string, port: number): string {
  return isIP(address) === 6 ? `[${address}]:${port}` : `${address}:${port}`;
}

const systemLookup: ServerLookup = async (hostname) =>
  (await dns.lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

export interface ResolveServerOptions {
  signal?: AbortSignal;
  /** give up on the host name look-up after this long (upstream_timeout) */
  timeoutMs?: number;
  lookup?: ServerLookup;
  /** server mode: every address must pass this guard (else blocked_target) */
  guard?: AddressGuard;
}

/**
 * The nameservers a `server` value names, each with a resolved address. A host name is
 * resolved first and every address it has becomes a server, tried in turn. With a guard, an
 * address it refuses fails the whole look-up as blocked_target: a name that resolves to an
 * internal address must not be usable to probe the host's network.
 */
export async function nameServers(
  input: string,
  options: ResolveServerOptions = {},
): Promise<NameServer[]> {
  const parsed = parseServer(input);
  let addresses: string[];
  if (parsed.family !== 0) {
    addresses = [parsed.address];
  } else {
    throwIfAborted(options.signal);
    const lookup = options.lookup ?? systemLookup;
    const found = await bounded(lookup(parsed.address), parsed.address, options);
    addresses = [...new Set(found.filter((a) => isIP(a) !== 0))];
    if (addresses.length === 0) {
      throw new LookupError(
        'invalid_server',
        `The nameserver name ${parsed.address} has no addresses`,
      );
    }
  }
  if (options.guard !== undefined) {
    for (const address of addresses) {
      const why = options.guard.refusal(address);
      if (why !== undefined) {
        throw new LookupError(
          'blocked_target',
          `The nameserver is at a ${why} address, which this service does not query`,
        );
      }
    }
  }
  return addresses.map((address): NameServer => {
    if (parsed.transport === 'tls') {
      return { transport: 'tls', address, port: parsed.port, servername: parsed.address };
    }
    if (parsed.transport === 'https') {
      return { transport: 'https', address, port: parsed.port, url: parsed.url ?? '' };
    }
    return { transport: 'dns', address, port: parsed.port };
  });
}

/** "address:port" strings for a plain `server` value (the form dig and c-ares take). */
export async function resolveServer(
  input: string,
  options: ResolveServerOptions = {},
): Promise<string[]> {
  return (await nameServers(input, options)).map((s) => formatServer(s.address, s.port));
}

/** The system's resolvers (resolv.conf, as node:dns read it), as plain DNS nameservers. */
export function systemNameServers(): NameServer[] {
  const out: NameServer[] = [];
  for (const entry of getServers()) {
    try {
      const parsed = parseServer(entry);
      if (parsed.family !== 0) {
        out.push({ transport: 'dns', address: parsed.address, port: parsed.port });
      }
    } catch {
      // an entry node:dns could not have produced; skip it
    }
  }
  if (out.length === 0) throw new LookupError('upstream_error', 'No nameserver is configured');
  return out;
}

// getaddrinfo cannot be cancelled, so the caller stops waiting instead.
function bounded(
  work: Promise<string[]>,
  name: string,
  options: ResolveServerOptions,
): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const { signal, timeoutMs } = options;
    const done = () => {
      if (timer !== undefined) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      done();
      reject(new LookupError('cancelled', 'The request was cancelled', { cause: signal?.reason }));
    };
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            done();
            reject(
              new LookupError('upstream_timeout', `Looking up the nameserver ${name} timed out`),
            );
          }, timeoutMs);
    signal?.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        done();
        resolve(value);
      },
      (err: unknown) => {
        done();
        reject(lookupFailure(err, name));
      },
    );
  });
}

function lookupFailure(err: unknown, name: string): LookupError {
  if (err instanceof LookupError) return err;
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'ENOTFOUND' || code === 'ENODATA' || code === 'EAI_NONAME') {
    return new LookupError('invalid_server', `The nameserver name ${name} does not resolve`, {
      cause: err,
    });
  }
  return new LookupError('upstream_error', `Looking up the nameserver ${name} failed`, {
    cause: err,
  });
}
