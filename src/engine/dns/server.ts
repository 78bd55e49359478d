// The `server` parameter of the domain service (docs/contract.md): an IPv4 or IPv6 address,
// optionally with a port, or a nameserver host name that is resolved first with the system
// resolver. The result is the list of "address:port" strings a c-ares Resolver takes.
import { promises as dns } from 'node:dns';
import { isIP } from 'node:net';
import { LookupError, throwIfAborted } from '../../contract/errors';
import { normalizeHost } from '../names';
import { printable } from '../../contract/errors';

export const DEFAULT_DNS_PORT = 53;

export interface ParsedServer {
  /** an IP address, or a host name (A-labels, lower case) when `family` is 0 */
  address: string;
  port: number;
  family: 0 | 4 | 6;
}

/** Resolves a nameserver host name to its addresses (the system resolver by default). */
export type ServerLookup = (hostname: string) => Promise<string[]>;

/** Parses a `server` value without touching the network. Throws `invalid_server`. */
export function parseServer(input: string): ParsedServer {
  const invalid = () =>
    new LookupError(
      'invalid_server',
      `"${printable(String(input))}" is not an IP address, an [IPv6]:port or a host name`,
    );
  if (typeof input !== 'string') throw invalid();
  const text = input.trim();
  if (text === '') throw invalid();

  const bracketed = /^\[([^\]]+)\](?::([^:]*))?$/.exec(text);
  if (bracketed !== null) {
    const address = bracketed[1];
    if (isIP(address) !== 6) throw invalid();
    return { address, port: parsePort(bracketed[2], invalid), family: 6 };
  }
  const family = isIP(text);
  if (family !== 0) return { address: text, port: DEFAULT_DNS_PORT, family: family === 4 ? 4 : 6 };

  // With one colon the part after it is a port; more colons without brackets is not an address.
  const colon = text.split(':');
  if (colon.length > 2) throw invalid();
  const [host = '', portText] = colon;
  const port = parsePort(portText, invalid);
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

function parsePort(text: string | undefined, invalid: () => LookupError): number {
  if (text === undefined) return DEFAULT_DNS_PORT;
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
}

/**
 * Turns a `server` value into Resolver.setServers entries. A host name is resolved first and
 * every address it has becomes a server (c-ares moves on to the next when one fails).
 */
export async function resolveServer(
  input: string,
  options: ResolveServerOptions = {},
): Promise<string[]> {
  const parsed = parseServer(input);
  if (parsed.family !== 0) return [formatServer(parsed.address, parsed.port)];
  throwIfAborted(options.signal);
  const lookup = options.lookup ?? systemLookup;
  const addresses = await bounded(lookup(parsed.address), parsed.address, options);
  const usable = addresses.filter((a) => isIP(a) !== 0);
  if (usable.length === 0) {
    throw new LookupError(
      'invalid_server',
      `The nameserver name ${parsed.address} has no addresses`,
    );
  }
  return [...new Set(usable)].map((a) => formatServer(a, parsed.port));
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
