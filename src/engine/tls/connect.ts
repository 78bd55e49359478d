// One TLS handshake with a host, bounded: the name resolved (system resolver, or the engine's
// DNS through `server`), each address passed through the address guard in server mode before
// any connection, at most MAX_ADDRESSES tried, one deadline for everything, the certificate
// list capped by OpenSSL (SSL_MAX_CERT_LIST_DEFAULT, 100 KiB) and the chain at MAX_CHAIN.
import { promises as dns } from 'node:dns';
import { setMaxListeners } from 'node:events';
import { connect as connectTcp, isIP, type Socket } from 'node:net';
import {
  connect as connectTls,
  type DetailedPeerCertificate,
  type SecureContext,
  type TLSSocket,
} from 'node:tls';
import { LookupError } from '../../contract/errors';
import { query, serversFor, type DnsOptions } from '../dns/query';
import { checkConnected, createAddressGuard, type AddressGuard } from '../guard';
import { startTls } from './smtp';

/** Certificates one answer describes; a longer chain is refused (response_too_large). */
export const MAX_CHAIN = 16;
/** Addresses of a name tried in turn when one refuses the connection. */
const MAX_ADDRESSES = 2;

export interface Endpoint {
  host: string;
  port: number;
  starttls?: 'smtp';
}

/** What every TLS look-up at a host the caller names takes: its signal, guard and trust. */
export interface OutboundTlsOptions {
  signal?: AbortSignal;
  /** server mode: a host or nameserver at a private address is blocked_target */
  blockPrivate?: boolean;
  allowCidrs?: readonly string[];
  /** CAs trusted besides the platform's and NODE_EXTRA_CA_CERTS (PEM text) */
  extraCa?: readonly string[];
}

/**
 * A look-up's bounds: one signal (the caller's and a deadline of `timeoutMs`), the options of
 * its DNS questions (the address guard included) and the nameserver the caller named, if any,
 * already held to the guard.
 */
export async function lookUpBounds<Dns extends object>(
  serverParam: unknown,
  options: OutboundTlsOptions & { dns?: Dns },
  timeoutMs: number,
) {
  const server =
    typeof serverParam === 'string' && serverParam.trim() !== '' ? serverParam : undefined;
  const deadline = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  // Every DNS question of the look-up listens to it; dozens at once are normal, not a leak.
  setMaxListeners(0, signal);
  const dnsOptions = {
    ...options.dns,
    signal,
    blockPrivate: options.blockPrivate === true,
    ...(options.allowCidrs !== undefined ? { allowCidrs: [...options.allowCidrs] } : {}),
  };
  // The `server` parameter passes the guard before any question goes to it.
  if (server !== undefined) await serversFor(server, dnsOptions, timeoutMs);
  return { server, deadline, signal, dnsOptions };
}

export interface ConnectOptions {
  signal: AbortSignal;
  context: SecureContext;
  /** resolve the name through this nameserver (the `server` parameter) */
  server?: string;
  dns?: DnsOptions;
  blockPrivate?: boolean;
  allowCidrs?: readonly string[];
}

export interface Handshake {
  address: string;
  protocol: string;
  cipher: string;
  alpn: string;
  /** the DER of each certificate, leaf first, as node links them (store anchors included) */
  chain: Buffer[];
  /** OpenSSL's verification error code (chain only, the name is checked apart), or null */
  verifyError: string | null;
}

/** The handshake, or `no_starttls` when an SMTP server does not offer it. */
export type Outcome =
  { kind: 'tls'; handshake: Handshake } | { kind: 'no_starttls'; address: string };

export async function handshake(endpoint: Endpoint, options: ConnectOptions): Promise<Outcome> {
  const addresses = await resolve(endpoint.host, options);
  // As guardedLookup does: one refused address among the answers refuses the name, so a
  // retry cannot land on the private one.
  const guard = options.blockPrivate ? createAddressGuard(options.allowCidrs) : undefined;
  for (const address of addresses) guard?.check(address);
  let last: unknown;
  for (const address of addresses.slice(0, MAX_ADDRESSES)) {
    try {
      return await onAddress(endpoint, address, options, guard);
    } catch (err) {
      last = err;
      // Only a refused or unreachable address is worth another; the rest is the server's word.
      if (!(err instanceof LookupError && /refused|unreachable/.test(err.detail))) throw err;
    }
  }
  throw last;
}

async function resolve(host: string, options: ConnectOptions): Promise<string[]> {
  if (isIP(host) !== 0) return [host];
  if (options.server !== undefined) {
    const result = await query(
      { host, types: ['A', 'AAAA'], server: options.server },
      { ...options.dns, signal: options.signal },
    );
    const addresses = result.records
      .filter((r) => r.type === 'A' || r.type === 'AAAA')
      .map((r) => r.value!);
    if (addresses.length === 0) throw noAddress(host);
    return addresses;
  }
  try {
    const found = await abortable(dns.lookup(host, { all: true, verbatim: true }), options.signal);
    if (found.length === 0) throw noAddress(host);
    return found.map((f) => f.address);
  } catch (err) {
    if (err instanceof LookupError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'ENOTFOUND' || code === 'ENODATA') throw noAddress(host);
    throw new LookupError('upstream_error', `${host} could not be resolved (${code ?? 'error'})`);
  }
}

function noAddress(host: string): LookupError {
  return new LookupError('not_found', `${host} has no address (A or AAAA) record`);
}

function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** TCP, then STARTTLS when asked, then TLS; every socket destroyed at the end or the deadline. */
async function onAddress(
  endpoint: Endpoint,
  address: string,
  options: ConnectOptions,
  guard: AddressGuard | undefined,
): Promise<Outcome> {
  const sockets: Array<Socket | TLSSocket> = [];
  const onAbort = () => sockets[sockets.length - 1]?.destroy(options.signal.reason as Error);
  options.signal.addEventListener('abort', onAbort, { once: true });
  try {
    const tcp = await openTcp(address, endpoint.port, sockets);
    checkConnected(tcp, guard);
    if (endpoint.starttls === 'smtp' && !(await startTls(tcp))) {
      return { kind: 'no_starttls', address };
    }
    const tls = connectTls({
      socket: tcp,
      ...(isIP(endpoint.host) === 0 ? { servername: endpoint.host } : {}),
      secureContext: options.context,
      rejectUnauthorized: false,
      minVersion: 'TLSv1',
      // HTTP's offer; SMTP has no ALPN identifier (RFC 7301 registry).
      ...(endpoint.starttls === undefined ? { ALPNProtocols: ['h2', 'http/1.1'] } : {}),
      // The host is checked against the leaf after the handshake (certificate-names.ts):
      // a wrong name is a problem to describe, not a reason to stop.
      checkServerIdentity: () => undefined,
    });
    sockets.push(tls);
    await new Promise<void>((resolve, reject) => {
      tls.once('secureConnect', resolve);
      tls.once('error', reject);
      tls.once('close', () =>
        reject(
          new LookupError(
            'upstream_error',
            'The server closed the connection during the TLS handshake',
          ),
        ),
      );
    });
    return { kind: 'tls', handshake: describe(tls, address) };
  } catch (err) {
    throw connectionError(err, endpoint, address, options.signal);
  } finally {
    options.signal.removeEventListener('abort', onAbort);
    // Only the outermost: the TLS socket owns the TCP handle it took over, and destroying
    // that handle twice crashes node (seen with node 20).
    sockets[sockets.length - 1]?.destroy();
  }
}

function openTcp(address: string, port: number, sockets: Socket[]): Promise<Socket> {
  return new Promise<Socket>((resolve, reject) => {
    const socket = connectTcp({ host: address, port });
    sockets.push(socket);
    socket.once('connect', () => {
      socket.off('error', reject);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

function describe(tls: TLSSocket, address: string): Handshake {
  const peer = tls.getPeerCertificate(true);
  const chain: Buffer[] = [];
  const seen = new Set<DetailedPeerCertificate>();
  for (let cert: DetailedPeerCertificate | undefined = peer; cert?.raw !== undefined;) {
    if (seen.has(cert)) break;
    seen.add(cert);
    chain.push(cert.raw);
    if (chain.length > MAX_CHAIN) {
      throw new LookupError(
        'response_too_large',
        `The server sent a chain of more than ${MAX_CHAIN} certificates`,
      );
    }
    // node links a self-signed certificate to itself
    cert = cert.issuerCertificate === cert ? undefined : cert.issuerCertificate;
  }
  if (chain.length === 0) throw new LookupError('upstream_error', 'The server sent no certificate');
  // node sets the OpenSSL code as a string (the type says Error); null when the chain verified
  const verifyError = tls.authorized ? null : (tls.authorizationError as unknown);
  return {
    address,
    protocol: tls.getProtocol() ?? '',
    cipher: tls.getCipher()?.standardName ?? tls.getCipher()?.name ?? '',
    alpn: typeof tls.alpnProtocol === 'string' ? tls.alpnProtocol : '',
    chain,
    verifyError:
      verifyError === null ? null : typeof verifyError === 'string' ? verifyError : 'UNSPECIFIED',
  };
}

// OpenSSL's reasons for a handshake that could not be read, by node's error code.
const GARBAGE =
  /WRONG_VERSION_NUMBER|UNKNOWN_PROTOCOL|PACKET_LENGTH_TOO_LONG|RECORD_LAYER|UNEXPECTED_MESSAGE|DECODE_ERROR|BAD_PACKET|HTTP_REQUEST/;

function connectionError(
  err: unknown,
  endpoint: Endpoint,
  address: string,
  signal: AbortSignal,
): LookupError {
  const where = `${endpoint.host}:${endpoint.port} (${address})`;
  if (signal.aborted) {
    const reason: unknown = signal.reason;
    if (reason instanceof LookupError) return reason;
    return new LookupError('cancelled', 'The request was cancelled');
  }
  if (err instanceof LookupError) return err;
  const raw = (err as { code?: unknown }).code;
  const code = typeof raw === 'string' ? raw : '';
  if (code === 'ECONNREFUSED')
    return new LookupError('upstream_error', `${where} refused the connection`);
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') {
    return new LookupError('upstream_error', `${where} is unreachable`);
  }
  if (code === 'ECONNRESET' || code === 'EPIPE') {
    return new LookupError('upstream_error', `${where} reset the connection`);
  }
  if (
    /EXCESSIVE_MESSAGE_SIZE|CERT_LENGTH|LENGTH_MISMATCH|TOO_LARGE|TOO_LONG/.test(code) &&
    !/PACKET_LENGTH/.test(code)
  ) {
    return new LookupError(
      'response_too_large',
      `${where} sent a certificate list larger than 100 KiB`,
    );
  }
  if (GARBAGE.test(code)) {
    return new LookupError(
      'upstream_error',
      `${where} did not answer with a TLS handshake (${code})`,
    );
  }
  return new LookupError(
    'upstream_error',
    `The TLS handshake with ${where} failed (${code || (err as Error).message})`,
  );
}
