// What the editor says about a DNSSEC verdict (QueryResult.dnssec), kept free of vscode so it
// is tested in plain Node: the headline, and the warnings issue 14 asks for (signatures that
// expire within 7 days, DS records without a matching DNSKEY, deprecated algorithms).
import type { DnssecResult } from '../../../contract/shapes';

export const EXPIRY_WARNING_DAYS = 7;
const DAY_MS = 86_400_000;

/** RFC 8624 section 3.1: not to be used for signing (5 and 7 still validate). */
const DEPRECATED: Record<number, string> = {
  1: 'RSAMD5',
  3: 'DSA',
  5: 'RSASHA1',
  6: 'DSA-NSEC3-SHA1',
  7: 'RSASHA1-NSEC3-SHA1',
  12: 'ECC-GOST',
};

export const STATUS_TEXT: Record<DnssecResult['status'], string> = {
  secure: 'DNSSEC: secure',
  insecure: 'DNSSEC: not signed (insecure)',
  bogus: 'DNSSEC: BOGUS (validating resolvers refuse this answer)',
  indeterminate: 'DNSSEC: could not be decided',
};

/** What the editor says instead of "could not be decided" for a nameserver that is no resolver. */
export const NOT_CHECKED_TEXT = 'DNSSEC: not checked (the nameserver is not a validating resolver)';

/**
 * An undecided verdict for which the nameserver gave not one DNSKEY set, not even the trust
 * anchor's: an authoritative server (it answers REFUSED for the root's keys), or one that does
 * not answer DNSSEC questions. Not a fault of the zone, so not a warning.
 */
export function notAResolver(result: DnssecResult): boolean {
  return result.status === 'indeterminate' && result.chain.every((l) => l.dnskey.length === 0);
}

export function dnssecWarnings(result: DnssecResult, nowMs: number): string[] {
  const warnings: string[] = [];
  const windows = [
    ...result.chain.flatMap((l) =>
      l.rrsig !== undefined ? [{ what: `DNSKEY set of ${l.zone}`, ...l.rrsig }] : [],
    ),
    ...(result.signatures ?? []).map((s) => ({ what: `${s.name} ${s.type}`, ...s })),
  ];
  for (const w of windows) {
    const left = Date.parse(w.expiration) - nowMs;
    if (left >= 0 && left < EXPIRY_WARNING_DAYS * DAY_MS) {
      warnings.push(`The signature over the ${w.what} expires ${w.expiration}`);
    }
  }
  for (const link of result.chain) {
    const tags = new Set(link.dnskey.map((k) => k.key_tag));
    for (const ds of link.ds) {
      if (link.dnskey.length > 0 && !tags.has(ds.key_tag)) {
        warnings.push(`${link.zone}: the DS for key ${ds.key_tag} has no matching DNSKEY`);
      }
    }
  }
  const deprecated = new Set<number>();
  for (const link of result.chain) for (const k of link.dnskey) deprecated.add(k.algorithm);
  for (const s of result.signatures ?? []) deprecated.add(s.algorithm);
  for (const alg of deprecated) {
    if (DEPRECATED[alg] !== undefined) {
      warnings.push(`Algorithm ${alg} (${DEPRECATED[alg]}) is deprecated`);
    }
  }
  return warnings;
}
