// GET /whois: RDAP first, port 43 where the TLD has no RDAP service (or its RDAP server fails),
// always at the registrable domain of the host.
import { getDomain, parse as parseHost } from 'tldts';
import type { Dispatcher } from 'undici';
import { LookupError, throwIfAborted } from '../../contract/errors';
import { normalizeHost } from '../names';
import type { WhoisResult } from '../../contract/shapes';
import type { WhoisParams } from '../../contract/services';
import { lookupPort43 } from './port43';
import { findRdapBase, loadBootstrap, lookupRdap } from './rdap';

export interface WhoisOptions {
  signal?: AbortSignal;
  /** per server (RDAP request or one port-43 reply); default 10 s */
  timeoutMs?: number;
  /** URL or file path replacing IANA's bootstrap; default env HOSTLENS_RDAP_BOOTSTRAP */
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
  const timeoutMs = options.timeoutMs ?? 10000;
  const http = {
    timeoutMs,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
  };
  const bootstrapSource = options.rdapBootstrap ?? envValue('HOSTLENS_RDAP_BOOTSTRAP');
  const bootstrap = await loadBootstrap(bootstrapSource, options.refreshBootstrap ?? true, http);
  const base = findRdapBase(bootstrap, domain);
  if (base !== undefined) {
    try {
      return await lookupRdap(domain, base, http);
    } catch (err) {
      // not_found, rate_limited and cancelled are answers; a broken RDAP server is not.
      if (
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
    ...(options.signal ? { signal: options.signal } : {}),
    ...(override ? { serverOverride: override } : {}),
  });
  return answer.result;
}

function envValue(name: string): string | undefined {
  const v = process.env[name];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}
