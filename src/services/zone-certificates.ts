// The certificates of a zone file's names: every owner with an address record in the file
// itself gets a TLS look-up (port 443 unless told), and the findings a zone's author acts on
// (a certificate that has expired or expires soon, an issuing CA the name's CAA records do not
// allow) are placed on the name's first address record. Over any DomainService, so the editor
// command and a test against loopback servers run the same code.
import type { DomainService } from '../contract/services';
import type { TlsProblemCode } from '../contract/shapes';
import type { SourceRange, ZoneSession } from './zone';

/** Names looked up per run: a zone of thousands of hosts is not a TLS scan. */
export const MAX_CERTIFICATE_NAMES = 100;
/** Look-ups at once. */
const CONCURRENCY = 4;
/** What the author of the zone can act on; the rest is the TLS look-up's own business. */
const ZONE_CODES: ReadonlySet<TlsProblemCode> = new Set([
  'expires_soon',
  'expired',
  'caa_mismatch',
]);

export interface ZoneName {
  /** the name without its trailing dot */
  host: string;
  /** where the file writes its first address record's owner */
  range: SourceRange;
}

export interface CertificateFinding extends ZoneName {
  code: TlsProblemCode;
  message: string;
}

export interface ZoneCertificateCheck {
  checked: number;
  /** names left out past MAX_CERTIFICATE_NAMES */
  skipped: number;
  findings: CertificateFinding[];
}

export interface ZoneCertificateOptions {
  /** 443 unless told: the port every name is looked up on */
  port?: number;
  /** the nameserver that resolves the names (the user's hostlens.dns.server) */
  server?: string;
  signal?: AbortSignal;
  /** called as each name's look-up ends, for progress */
  onChecked?: (host: string, done: number, of: number) => void;
}

/**
 * Each owner with an A or AAAA record written in the file itself (an included file's records
 * sit on that file's lines), wildcards aside, at its first such record.
 */
export function addressNames(session: ZoneSession): ZoneName[] {
  const seen = new Map<string, SourceRange>();
  for (const record of session.recordsOfTypes('A', 'AAAA')) {
    if (record.file !== undefined || record.key.startsWith('*.') || seen.has(record.key)) continue;
    seen.set(record.key, record.ownerRange ?? record.range);
  }
  return [...seen].map(([key, range]) => ({ host: key.replace(/\.$/, ''), range }));
}

/**
 * Looks up the first MAX_CERTIFICATE_NAMES names, CONCURRENCY at a time. A name whose look-up
 * fails (no TLS server, a timeout) has no finding: nothing about its certificate is known.
 * Undefined when the signal aborted the run.
 */
export async function checkZoneCertificates(
  domain: Pick<DomainService, 'tls'>,
  names: readonly ZoneName[],
  options: ZoneCertificateOptions = {},
): Promise<ZoneCertificateCheck | undefined> {
  const chosen = names.slice(0, MAX_CERTIFICATE_NAMES);
  const port = options.port ?? 443;
  const findings: CertificateFinding[][] = chosen.map(() => []);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < chosen.length && options.signal?.aborted !== true) {
      const index = next++;
      const name = chosen[index];
      const result = await domain
        .tls(
          { host: name.host, port, ...(options.server ? { server: options.server } : {}) },
          options.signal ? { signal: options.signal } : undefined,
        )
        .catch(() => undefined);
      options.onChecked?.(name.host, ++done, chosen.length);
      for (const problem of result?.problems ?? []) {
        if (ZONE_CODES.has(problem.code)) {
          findings[index].push({ ...name, code: problem.code, message: problem.message });
        }
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  if (options.signal?.aborted === true) return undefined;
  return {
    checked: chosen.length,
    skipped: names.length - chosen.length,
    // in the file's order, whichever look-up ended first
    findings: findings.flat(),
  };
}
