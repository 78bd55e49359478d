// MTA-STS (RFC 8461): the `_mta-sts` TXT record says a policy exists; the policy itself is a
// small text file at https://mta-sts.<domain>/.well-known/mta-sts.txt, fetched the way a
// sending MTA fetches it (a PKIX-valid certificate for that name, no redirects, text/plain,
// bounded in time and size), then read and held against the domain's real MX hosts.
import { LookupError, printable, throwIfAborted, toLookupError } from '../../contract/errors';
import type { MtaStsParams } from '../../contract/services';
import type {
  MtaStsMx,
  MtaStsPolicy,
  MtaStsProblem,
  MtaStsResult,
  QueryResult,
} from '../../contract/shapes';
import { resolveLookup, type DnsLookup } from '../dns/lookup';
import { normalizeHost } from '../names';
import { lookUpBounds, type OutboundTlsOptions } from './connect';
import { fetchTrust } from './trust';
import { header, withSession, type LookupFunction } from '../web/fetcher';
import { parseMailRecord } from '../mail/policy-records';

/** The whole look-up: TXT, MX, the policy host's resolution, TLS and the fetch. */
export const MTA_STS_DEADLINE_MS = 10_000;
/** RFC 8461 section 3.3 lets senders cap the policy body; 64 KiB is what senders use. */
export const MTA_STS_POLICY_BYTES = 64 * 1024;
/** RFC 8461 section 3.2: max_age is at most 31557600 seconds (a year). */
const MAX_AGE_LIMIT = 31_557_600;
/** Below a day the policy protects little between fetches: a warning, not an error. */
const MAX_AGE_SHORT = 86_400;
/** MX hosts held against the policy; more is not a real mail domain. */
export const MAX_MX_HOSTS = 16;

export interface MtaStsOptions extends OutboundTlsOptions {
  timeoutMs?: number;
  dns?: { timeoutMs?: number; tries?: number };
  /** the policy host's port: 443, as RFC 8461 fixes it, outside tests */
  policyPort?: number;
  /**
   * The domain's MX answer when the caller asks it anyway (the mail set-up does, for each MX
   * host's STARTTLS), so that it is asked once.
   */
  mxAnswer?: Promise<QueryResult>;
}

export async function inspectMtaSts(
  params: MtaStsParams,
  options: MtaStsOptions = {},
): Promise<MtaStsResult> {
  throwIfAborted(options.signal);
  if (typeof params.host !== 'string') {
    throw new LookupError('invalid_host', 'A mail domain is required');
  }
  const host = normalizeHost(params.host);
  const timeoutMs = options.timeoutMs ?? MTA_STS_DEADLINE_MS;
  const { server, deadline, signal, dnsOptions } = await lookUpBounds(
    params.server,
    options,
    timeoutMs,
  );
  const lookup = resolveLookup(server, dnsOptions);
  const port = options.policyPort ?? 443;
  const policyUrl = `https://mta-sts.${host}${port === 443 ? '' : `:${port}`}/.well-known/mta-sts.txt`;
  const base = { host, policy_url: policyUrl };

  try {
    const [txt, mx] = await Promise.all([
      lookup(`_mta-sts.${host}`, 'TXT', signal),
      (options.mxAnswer ?? lookup(host, 'MX', signal)).catch((err: unknown) => err as Error),
    ]);
    const texts = txt.records.filter((r) => r.type === 'TXT').map((r) => r.value ?? '');
    const record = parseMailRecord('mta_sts', `_mta-sts.${host}.`, texts);
    // RFC 8461 section 3.3: no record, no policy; a sender does not fetch one.
    if (record === null) return { ...base, record: null, policy: null, mx: [], problems: [] };
    const problems: MtaStsProblem[] = record.problems
      .filter((p) => p.severity === 'error')
      .map((p) => ({ code: 'record_invalid', severity: 'error', message: p.message }));
    const id = record.tags.id;
    const withRecord = { ...base, record: record.record, ...(id ? { id } : {}) };
    const fetched = await fetchPolicy(policyUrl, {
      ...options,
      signal,
      resolve: resolveAddresses(lookup, signal),
    });
    if ('problem' in fetched) {
      return {
        ...withRecord,
        policy: null,
        mx: [],
        problems: sorted([...problems, fetched.problem]),
      };
    }
    const { policy, problems: policyProblems } = parsePolicy(fetched.text);
    problems.push(...policyProblems);
    const hosts = mx instanceof Error ? [] : mxHosts(mx);
    const matched = hosts.map((h) => ({
      ...h,
      pattern: policy ? matchingPattern(policy.mx, h.host) : null,
    }));
    if (policy) problems.push(...coverageProblems(policy, matched));
    return { ...withRecord, policy, mx: matched, problems: sorted(problems) };
  } catch (err) {
    if (deadline.aborted && !(options.signal?.aborted ?? false)) {
      throw new LookupError(
        'upstream_timeout',
        `The MTA-STS look-up of ${host} did not complete within ${timeoutMs} ms`,
      );
    }
    throw err;
  }
}

/** The MX hosts of an MX answer, by preference; the null MX (RFC 7505) is none. */
export function mxHosts(answer: QueryResult): Array<{ host: string; preference: number }> {
  return answer.records
    .filter((r) => r.type === 'MX' && r.value !== undefined)
    .map((r) => ({ host: r.value!.replace(/\.$/, '').toLowerCase(), preference: r.priority ?? 0 }))
    .filter((r) => r.host !== '')
    .sort((a, b) => a.preference - b.preference || a.host.localeCompare(b.host))
    .slice(0, MAX_MX_HOSTS);
}

/**
 * RFC 8461 section 4.1: an MX host matches a pattern equal to it, or a `*.` pattern whose rest
 * equals the host without its leftmost label (the wildcard stands for exactly one label).
 */
export function mxMatchesPattern(pattern: string, mxHost: string): boolean {
  const p = pattern.trim().replace(/\.$/, '').toLowerCase();
  const h = mxHost.trim().replace(/\.$/, '').toLowerCase();
  if (p.startsWith('*.')) {
    const dot = h.indexOf('.');
    return dot > 0 && h.slice(dot + 1) === p.slice(2);
  }
  return p === h;
}

function matchingPattern(patterns: readonly string[], mxHost: string): string | null {
  return patterns.find((p) => mxMatchesPattern(p, mxHost)) ?? null;
}

/**
 * The policy file of RFC 8461 section 3.2: `key: value` lines ended by LF or CRLF; field names
 * and the version and mode values are case-sensitive; unknown fields are ignored; of a field
 * other than mx written twice, the first counts.
 */
export function parsePolicy(text: string): {
  policy: MtaStsPolicy | null;
  problems: MtaStsProblem[];
} {
  const problems: MtaStsProblem[] = [];
  const invalid = (message: string) =>
    problems.push({ code: 'policy_invalid', severity: 'error', message });
  const fields = new Map<string, string>();
  const mx: string[] = [];
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  for (const [index, raw] of lines.entries()) {
    const line = raw.replace(/[ \t]+$/, '');
    if (line.trim() === '') continue;
    const colon = line.indexOf(':');
    const key = colon > 0 ? line.slice(0, colon).trim() : '';
    if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$/.test(key)) {
      invalid(`Line ${index + 1} is not "key: value": "${printable(line.slice(0, 80))}"`);
      continue;
    }
    const value = line.slice(colon + 1).trim();
    if (key === 'mx') mx.push(value);
    else if (!fields.has(key)) fields.set(key, value);
  }
  const version = fields.get('version');
  if (version !== 'STSv1') {
    invalid(
      version === undefined
        ? 'No version: line'
        : `version must be STSv1, not "${printable(version)}"`,
    );
  }
  const mode = fields.get('mode');
  if (mode === undefined) invalid('No mode: line');
  else if (!['enforce', 'testing', 'none'].includes(mode)) {
    invalid(`mode must be enforce, testing or none, not "${printable(mode)}"`);
  }
  const ageText = fields.get('max_age');
  const maxAge = ageText !== undefined && /^\d{1,10}$/.test(ageText) ? Number(ageText) : null;
  if (ageText === undefined) invalid('No max_age: line');
  else if (maxAge === null || maxAge > MAX_AGE_LIMIT) {
    invalid(
      `max_age must be a number of seconds up to ${MAX_AGE_LIMIT}, not "${printable(ageText)}"`,
    );
  } else if (maxAge < MAX_AGE_SHORT && mode !== 'none') {
    problems.push({
      code: 'max_age_short',
      severity: 'warning',
      message: `max_age ${maxAge} s: senders forget the policy within a day, so an attacker who blocks the policy fetch downgrades them soon after`,
    });
  }
  for (const pattern of mx) {
    if (
      !/^(\*\.)?[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)+\.?$/i.test(
        pattern,
      )
    ) {
      invalid(`mx: "${printable(pattern)}" is not a host name or a *. pattern`);
    }
  }
  if ((mode === 'enforce' || mode === 'testing') && mx.length === 0) {
    invalid(`mode ${mode} without any mx: line matches no MX host`);
  }
  if (version === undefined && mode === undefined && mx.length === 0) {
    return { policy: null, problems };
  }
  return {
    policy: { version: version ?? '', mode: mode ?? '', max_age: maxAge, mx },
    problems,
  };
}

function coverageProblems(policy: MtaStsPolicy, hosts: MtaStsMx[]): MtaStsProblem[] {
  const problems: MtaStsProblem[] = [];
  if (policy.mode === 'testing') {
    problems.push({
      code: 'testing_mode',
      severity: 'warning',
      message:
        'mode testing: senders report failures (TLS-RPT) but still deliver over unvalidated connections',
    });
  } else if (policy.mode === 'none') {
    problems.push({
      code: 'mode_none',
      severity: 'warning',
      message: 'mode none: the policy is withdrawn; senders no longer require validated TLS',
    });
  }
  if (policy.mode !== 'enforce' && policy.mode !== 'testing') return problems;
  for (const mx of hosts.filter((h) => h.pattern === null)) {
    problems.push({
      code: 'mx_not_covered',
      severity: policy.mode === 'enforce' ? 'error' : 'warning',
      message:
        policy.mode === 'enforce'
          ? `MX ${mx.host} matches no mx: pattern: senders that honour the policy will not deliver to it`
          : `MX ${mx.host} matches no mx: pattern: enforcing this policy would stop delivery to it`,
    });
  }
  return problems;
}

type Fetched = { text: string } | { problem: MtaStsProblem };

/** The policy fetch: a failure that is the domain's own is a problem; the caller's, thrown. */
async function fetchPolicy(
  url: string,
  options: MtaStsOptions & { signal: AbortSignal; resolve: LookupFunction },
): Promise<Fetched> {
  const target = new URL(url);
  const unavailable = (message: string): Fetched => ({
    problem: { code: 'policy_unavailable', severity: 'error', message },
  });
  try {
    return await withSession(
      {
        signal: options.signal,
        blockPrivate: options.blockPrivate === true,
        ...(options.allowCidrs !== undefined ? { allowCidrs: [...options.allowCidrs] } : {}),
        lookup: options.resolve,
        // RFC 8461 section 3.3: the policy host's certificate must be valid as a sender checks
        // it, so the verifying context (at the level the inspection calls trusted), not the
        // inspection's, which accepts any chain in order to describe it.
        secureContext: fetchTrust(options.extraCa ?? [], { securityLevel: 2 }),
        // RFC 8461 section 3.3: HTTP 3xx redirects MUST NOT be followed.
        limits: { maxRedirects: 0, totalTimeoutMs: options.timeoutMs ?? MTA_STS_DEADLINE_MS },
      },
      async (session): Promise<Fetched> => {
        const end = await session.follow(target, { accept: 'text/plain' });
        if (end.hops.length > 0) {
          return {
            problem: {
              code: 'policy_redirect',
              severity: 'error',
              message: `${target.hostname} answers with a ${end.hops[0].status_code} redirect; senders do not follow it (RFC 8461 section 3.3), so there is no policy`,
            },
          };
        }
        if (end.status !== 200) {
          return unavailable(`${url} answers HTTP ${end.status}; senders find no policy`);
        }
        const type = (header(end.headers, 'content-type') ?? '').split(';')[0].trim().toLowerCase();
        const body = await session.readAll(end, MTA_STS_POLICY_BYTES);
        if (type !== 'text/plain') {
          return {
            problem: {
              code: 'policy_media_type',
              severity: 'error',
              message: `The policy is served as "${printable(type || 'no Content-Type')}"; it must be text/plain (RFC 8461 section 3.2)`,
            },
          };
        }
        return { text: body.toString('utf8') };
      },
    );
  } catch (err) {
    const e = toLookupError(err);
    if (e.code === 'blocked_target' || e.code === 'cancelled') throw e;
    if (options.signal.aborted) throw err;
    const certificate = certificateError(err);
    if (certificate !== undefined) {
      return {
        problem: {
          code: 'policy_certificate_invalid',
          severity: 'error',
          message: `The certificate of ${target.hostname} does not validate (${certificate}); senders ignore the policy`,
        },
      };
    }
    if (e.code === 'response_too_large') {
      return unavailable(`The policy is larger than ${MTA_STS_POLICY_BYTES / 1024} KiB`);
    }
    return unavailable(`${url} could not be fetched (${e.code}: ${e.detail})`);
  }
}

/** The OpenSSL verification code behind a failed fetch, when a certificate is why. */
function certificateError(err: unknown): string | undefined {
  for (
    let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 5;
    depth++
  ) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (/CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|ERR_TLS_CERT_ALTNAME_INVALID/.test(code))
      return code;
    // node names only some of OpenSSL's verification codes; the rest (a key or digest too
    // weak for the security level, X509_V_ERR_EE_KEY_TOO_SMALL, _CA_MD_TOO_WEAK) are
    // UNSPECIFIED with OpenSSL's text
    if (code === 'UNSPECIFIED') return (e as { message?: string }).message ?? code;
    e = e.cause as typeof e;
  }
  return undefined;
}

/** The policy host's addresses through the look-up's own nameserver (`server`, or the default). */
function resolveAddresses(lookup: DnsLookup, signal: AbortSignal): LookupFunction {
  return async (hostname) => {
    const answers = await Promise.all(
      (['A', 'AAAA'] as const).map((type) => lookup(hostname, type, signal).catch(() => undefined)),
    );
    const addresses = answers.flatMap((answer) =>
      (answer?.records ?? [])
        .filter((r) => (r.type === 'A' || r.type === 'AAAA') && r.value !== undefined)
        .map((r) => ({ address: r.value!, family: r.type === 'A' ? 4 : 6 })),
    );
    if (addresses.length === 0) {
      throw Object.assign(new Error(`${hostname} does not resolve`), { code: 'ENOTFOUND' });
    }
    return addresses;
  };
}

function sorted(problems: MtaStsProblem[]): MtaStsProblem[] {
  return problems.sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1));
}
