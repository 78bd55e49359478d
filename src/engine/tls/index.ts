// GET /domain/tls (additive): one TLS endpoint, direct or after SMTP STARTTLS. The handshake,
// the CAA set (RFC 8659) and the validated TLSA set (RFC 6698) are asked at once, so the
// look-up costs the resolution, TCP and TLS round trips and no more; the chain is then judged
// (verify.ts), held to CAA (caa.ts) and DANE (dane.ts). Everything runs under one deadline.
import { X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';
import { rootCertificates } from 'node:tls';
import { LookupError, printable, throwIfAborted } from '../../contract/errors';
import type { TlsParams } from '../../contract/services';
import type { TlsProblem, TlsResult } from '../../contract/shapes';
import { validatedAnswer, type DnssecOptions } from '../dns/dnssec/index';
import { resolveLookup } from '../dns/lookup';
import { normalizeHost } from '../names';
import { checkCaa, relevantCaa } from './caa';
import { readCertificate } from './certificate';
import { handshake, type Handshake, lookUpBounds, type OutboundTlsOptions } from './connect';
import { checkDane, tlsaName } from './dane';
import { trustStore } from './trust';
import { verifyChain } from './verify';

/** The whole inspection: resolution, connection, STARTTLS, handshake, CAA and TLSA. */
export const TLS_DEADLINE_MS = 10_000;

export interface TlsOptions extends OutboundTlsOptions {
  /** the whole inspection, in milliseconds (default TLS_DEADLINE_MS) */
  timeoutMs?: number;
  /** the CAA and TLSA questions (per-try timeout, tries, trust anchors' env) */
  dns?: DnssecOptions;
  /** days before not_after from which expires_soon is reported (default 21) */
  expiresSoonDays?: number;
  now?: () => number;
}

/**
 * Builds the trust store now (a server's warm-up), not in its first TLS look-up, and reads one
 * of its roots as a served certificate is read, so that code is compiled before a request.
 */
export function warmUpTls(extraCa: readonly string[] = []): Promise<void> {
  trustStore(extraCa);
  const [root] = rootCertificates;
  if (root !== undefined) readCertificate(Buffer.from(new X509Certificate(root).raw), Date.now());
  return Promise.resolve();
}

export async function inspectTls(params: TlsParams, options: TlsOptions = {}): Promise<TlsResult> {
  throwIfAborted(options.signal);
  const host = hostOf(params.host);
  const starttls = starttlsOf(params.starttls);
  const port = portOf(params.port, starttls === 'smtp' ? 25 : 443);
  const timeoutMs = options.timeoutMs ?? TLS_DEADLINE_MS;
  const timedOut = () =>
    new LookupError(
      'upstream_timeout',
      `${host}:${port} did not complete the TLS look-up within ${timeoutMs} ms`,
    );
  const { server, deadline, signal, dnsOptions } = await lookUpBounds(
    params.server,
    options,
    timeoutMs,
  );
  const store = trustStore(options.extraCa ?? []);
  const now = (options.now ?? Date.now)();

  const named = isIP(host) === 0;
  const lookup = resolveLookup(server, dnsOptions);
  const caa = named ? relevantCaa(host, lookup, signal) : Promise.resolve(undefined);
  const tlsa = named
    ? validatedAnswer(tlsaName(host, port), 'TLSA', server, {
        ...dnsOptions,
        now: () => now,
        whenPresent: true,
      })
    : Promise.reject(new LookupError('not_found', 'An address has no TLSA records'));
  // Settled whatever happens, so a failed handshake leaves no unhandled rejection behind.
  caa.catch(() => undefined);
  tlsa.catch(() => undefined);

  let outcome;
  try {
    outcome = await handshake(
      { host, port, ...(starttls ? { starttls } : {}) },
      {
        signal,
        context: store.context,
        ...(server !== undefined ? { server } : {}),
        dns: dnsOptions,
        blockPrivate: options.blockPrivate === true,
        ...(options.allowCidrs !== undefined ? { allowCidrs: options.allowCidrs } : {}),
      },
    );
  } catch (err) {
    if (deadline.aborted && !(options.signal?.aborted ?? false)) throw timedOut();
    throw err;
  }
  const base = { host, port, ...(starttls ? { starttls } : {}) };
  if (outcome.kind === 'no_starttls') {
    return {
      ...base,
      protocol: '',
      cipher: '',
      alpn: '',
      trusted: false,
      chain: [],
      problems: [
        {
          code: 'no_starttls',
          severity: 'error',
          message: `The SMTP server at ${host}:${port} does not offer STARTTLS: mail to it travels unencrypted`,
        },
      ],
      address: outcome.address,
    };
  }
  return judge(outcome.handshake, {
    host,
    port,
    starttls,
    base,
    now,
    store,
    caa,
    tlsa,
    signal,
    timedOut,
    deadline,
    options,
  });
}

async function judge(
  hs: Handshake,
  ctx: {
    host: string;
    port: number;
    starttls: 'smtp' | undefined;
    base: Pick<TlsResult, 'host' | 'port' | 'starttls'>;
    now: number;
    store: ReturnType<typeof trustStore>;
    caa: ReturnType<typeof relevantCaa> | Promise<undefined>;
    tlsa: ReturnType<typeof validatedAnswer>;
    signal: AbortSignal;
    timedOut: () => LookupError;
    deadline: AbortSignal;
    options: TlsOptions;
  },
): Promise<TlsResult> {
  const linked = hs.chain.map((der) => readCertificate(der, ctx.now));
  const verdict = verifyChain({
    chain: linked,
    verifyError: hs.verifyError,
    host: ctx.host,
    anchors: ctx.store.anchors,
    now: ctx.now,
    ...(ctx.options.expiresSoonDays !== undefined
      ? { expiresSoonDays: ctx.options.expiresSoonDays }
      : {}),
  });
  const sent = linked.slice(0, verdict.sentCount);
  const problems: TlsProblem[] = [...verdict.problems];
  let caaSet;
  let dane;
  try {
    [caaSet, dane] = await Promise.all([
      ctx.caa.catch(() => undefined),
      checkDane({
        host: ctx.host,
        port: ctx.port,
        smtp: ctx.starttls === 'smtp',
        sent,
        linked,
        trusted: verdict.trusted,
        nameMatches: verdict.nameMatches,
        now: ctx.now,
        answer: ctx.tlsa,
      }),
    ]);
  } catch (err) {
    if (ctx.deadline.aborted && !(ctx.options.signal?.aborted ?? false)) throw ctx.timedOut();
    throw err;
  }
  throwIfAborted(ctx.options.signal);
  const caaProblem = caaSet !== undefined ? checkCaa(ctx.host, caaSet, linked) : undefined;
  if (caaProblem) problems.push(caaProblem);
  if (dane?.problem) problems.push(dane.problem);
  problems.sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1));
  return {
    ...ctx.base,
    protocol: hs.protocol,
    cipher: hs.cipher,
    alpn: hs.alpn,
    trusted: verdict.trusted,
    chain: sent.map((c) => c.json),
    problems,
    address: hs.address,
    ...(dane ? { dane: dane.dane } : {}),
  };
}

function hostOf(value: unknown): string {
  if (typeof value !== 'string') throw new LookupError('invalid_host', 'A hostname is required');
  const bare = value.trim().replace(/^\[(.*)\]$/, '$1');
  if (isIP(bare) !== 0) return bare;
  return normalizeHost(bare);
}

function starttlsOf(value: unknown): 'smtp' | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'string' && value.trim().toLowerCase() === 'smtp') return 'smtp';
  throw new LookupError(
    'invalid_argument',
    `starttls must be "smtp", not "${printable(typeof value === 'string' ? value : typeof value)}"`,
  );
}

function portOf(value: unknown, fallback: number): number {
  if (value === undefined || value === null || value === '') return fallback;
  const text = typeof value === 'number' || typeof value === 'string' ? String(value).trim() : '?';
  const port = /^\d{1,5}$/.test(text) ? Number(text) : NaN;
  if (!(port >= 1 && port <= 65535)) {
    throw new LookupError(
      'invalid_argument',
      `The port must be a number from 1 to 65535, not "${printable(text)}"`,
    );
  }
  return port;
}
