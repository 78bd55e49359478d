// GET /whois: RDAP first, port 43 where the TLD has no RDAP service (or its RDAP server fails),
// always at the registrable domain of the host.
import { getDomain, parse as parseHost } from 'tldts';
import type { Dispatcher } from 'undici';
import { LookupError, throwIfAborted } from '../../contract/errors';
import { createGuardedAgent } from '../agent';
import { createAddressGuard, type AddressGuard } from '../guard';
import { normalizeHost } from '../names';
import type { WhoisResult } from '../../contract/shapes';
import type { WhoisParams } from '../../contract/services';
import { lookupPort43 } from './port43';
import { findRdapBase, loadBootstrap, lookupRdap } from './rdap';

/**
 * The whole look-up (bootstrap, RDAP, registry, referrals) ends within this, whatever the entry
 * point: below the 30 s the server and the HTTP client give a request, so a chain of slow
 * referrals is a WHOIS timeout and not a cut connection.
 */
export const WHOIS_TOTAL_TIMEOUT_MS = 25_000;

export interface WhoisOptions {
  signal?: AbortSignal;
  /** per server (RDAP request or one port-43 reply); default 10 s */
  timeoutMs?: number;
  /** the whole look-up; default WHOIS_TOTAL_TIMEOUT_MS */
  totalTimeoutMs?: number;
  /**
   * Server mode: every connection (RDAP bootstrap, base and each redirect hop, the port-43
   * registry, IANA and every referral, the configured servers too) must pass the address guard
   * (no private, loopback, link-local or metadata address); allowCidrs is the way to reach an
   * internal range.
   */
  blockPrivate?: boolean;
  /** with blockPrivate: ranges the operator does want reachable (CIDR strings) */
  allowCidrs?: string[];
  /**
   * URL or file path replacing IANA's bootstrap; default env HOSTLENS_RDAP_BOOTSTRAP. Honoured as
   * given: an empty one means no RDAP service at all, one without the TLD sends it to port 43.
   */
  rdapBootstrap?: string;
  /**
   * Fetch IANA's live bootstrap (cached a day) when no rdapBootstrap is given; default true.
   * Tests set this to false (or give rdapBootstrap) so that nothing leaves the machine.
   */
  refreshBootstrap?: boolean;
  /** "host:port" receiving every port-43 query; default env HOSTLENS_WHOIS_SERVER */
  whoisServer?: string;
  /** undici dispatcher for RDAP requests (tests, proxies) */
  dispatcher?: Dispatcher;
}

/** The name a WHOIS registry holds for a host: its registrable domain (ICANN section of the PSL). */
export function registrableDomain(host: string): string {
  const ascii = normalizeHost(host);
  if (parseHost(ascii).isIp) {
    throw new LookupError('invalid_host', 'WHOIS looks up domain names, not IP addresses');
  }
  const domain = getDomain(ascii, { allowPrivateDomains: false });
  if (domain === null || domain === '') {
    throw new LookupError('not_found', `"${ascii}" is a public suffix, not a registrable domain`);
  }
  return domain;
}

export async function whois(params: WhoisParams, options: WhoisOptions = {}): Promise<WhoisResult> {
  const domain = registrableDomain(params.host);
  throwIfAborted(options.signal);
  const deadline = AbortSignal.timeout(options.totalTimeoutMs ?? WHOIS_TOTAL_TIMEOUT_MS);
  const guard = options.blockPrivate ? createAddressGuard(options.allowCidrs) : undefined;
  const guarded = guard
    ? createGuardedAgent(options.allowCidrs ? { allowCidrs: options.allowCidrs } : {})
    : undefined;
  try {
    return await lookUp(domain, options, deadline, guarded, guard);
  } catch (err) {
    // Whatever was under way when the deadline passed reports it in its own words; the
    // answer is the same everywhere.
    if (deadline.aborted && !options.signal?.aborted) {
      throw new LookupError('upstream_timeout', 'The WHOIS look-up did not finish in time', {
        cause: err,
      });
    }
    throw err;
  } finally {
    void guarded?.destroy().catch(() => undefined);
  }
}

async function lookUp(
  domain: string,
  options: WhoisOptions,
  deadline: AbortSignal,
  guardedDispatcher: Dispatcher | undefined,
  guard: AddressGuard | undefined,
): Promise<WhoisResult> {
  const timeoutMs = options.timeoutMs ?? 10000;
  // In server mode the guarded agent carries every RDAP request; no dispatcher given by a
  // caller replaces it.
  const dispatcher = guardedDispatcher ?? options.dispatcher;
  const http = {
    timeoutMs,
    deadline,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(dispatcher ? { dispatcher } : {}),
    ...(guardedDispatcher ? { redirectDispatcher: guardedDispatcher } : {}),
  };
  const bootstrapSource = options.rdapBootstrap ?? process.env.HOSTLENS_RDAP_BOOTSTRAP;
  const bootstrap = await loadBootstrap(bootstrapSource, options.refreshBootstrap ?? true, http);
  const base = findRdapBase(bootstrap, domain);
  if (base !== undefined) {
    try {
      return await lookupRdap(domain, base, http);
    } catch (err) {
      // not_found, rate_limited, blocked_target and cancelled are answers; a broken RDAP
      // server is not (unless the deadline has passed: then nothing else is tried).
      if (
        deadline.aborted ||
        !(err instanceof LookupError) ||
        !['upstream_error', 'upstream_timeout', 'response_too_large'].includes(err.code)
      ) {
        throw err;
      }
    }
  }
  const override = options.whoisServer ?? envValue('HOSTLENS_WHOIS_SERVER');
  const answer = await lookupPort43(domain, {
    totalTimeoutMs: timeoutMs,
    connectTimeoutMs: Math.min(5000, timeoutMs),
    deadline,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(override ? { serverOverride: override } : {}),
    ...(guard ? { guard } : {}),
  });
  return answer.result;
}

function envValue(name: string): string | undefined {
  const v = process.env[name];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}
