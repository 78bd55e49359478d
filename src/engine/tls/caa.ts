// CAA (RFC 8659) against the CA that issued a certificate. The relevant record set is the one
// of the name itself or, when empty, of its closest ancestor that has one (section 3, "tree
// climbing"); every level is asked at once, so the climb costs one round trip. A certificate
// does not name its CA's CAA identifier, so an identifier is the issuing CA's when either
//  1. its registrable domain is that of a URL the CA itself publishes in the chain: the
//     Authority Information Access of every certificate (OCSP responder, CA Issuers), which
//     the CA hosts on its own domains (ocsp.digicert.com for "digicert.com", o.pki.goog for
//     "pki.goog", ocsp.sectigo.com for "sectigo.com"); or, failing that,
//  2. a label of the identifier (not the TLD, at least four characters) appears in the
//     organisation or common name of an issuer in the chain, letters and digits compared
//     ("letsencrypt.org" and "Let's Encrypt", whose OCSP host is lencr.org).
// CCADB's CAA identifiers that neither rule reaches are listed in KNOWN_IDENTIFIERS.
import { getDomain } from 'tldts';
import type { DnsRecord, TlsProblem } from '../../contract/shapes';
import { ask, type DnsLookup } from '../dns/lookup';
import type { ReadCertificate } from './certificate';

/** CCADB "CAA Identifiers" whose labels do not spell the CA's name. */
const KNOWN_IDENTIFIERS: Record<string, string[]> = {
  'pki.goog': ['googletrustservices'],
};

export interface CaaFinding {
  /** the name whose CAA set applies ("" when no level has one) */
  owner: string;
  records: DnsRecord[];
  problem?: TlsProblem;
}

/** The relevant CAA set for `host`; undefined when a level could not be asked (no verdict). */
export async function relevantCaa(
  host: string,
  lookup: DnsLookup,
  signal?: AbortSignal,
): Promise<{ owner: string; records: DnsRecord[] } | undefined> {
  const labels = host.replace(/\.$/, '').toLowerCase().split('.');
  // RFC 8659 section 3: the name, then each parent, stopping before the root.
  const levels = labels.map((_, i) => labels.slice(i).join('.'));
  const answers = await Promise.all(levels.map((name) => ask(lookup, name, 'CAA', signal)));
  for (let i = 0; i < levels.length; i++) {
    const answer = answers[i];
    if (answer.kind === 'error') return undefined;
    if (answer.kind === 'records') {
      const caa = answer.records.filter((r) => r.type === 'CAA');
      if (caa.length > 0) return { owner: levels[i], records: caa };
    }
  }
  return { owner: '', records: [] };
}

/**
 * Whether the chain's CA is among those the set allows for the name the leaf carries for
 * `host` (issuewild for a wildcard, RFC 8659 section 4.3). A problem when it is not.
 */
export function checkCaa(
  host: string,
  set: { owner: string; records: DnsRecord[] },
  chain: readonly ReadCertificate[],
): TlsProblem | undefined {
  if (set.records.length === 0) return undefined;
  const leaf = chain[0];
  const wildcard =
    !leaf.json.dns_names.includes(host.toLowerCase()) &&
    leaf.json.dns_names.some((n) => n.startsWith('*.'));
  const tag = (t: string) => set.records.filter((r) => r.tag?.toLowerCase() === t);
  const wild = tag('issuewild');
  const relevant = wildcard && wild.length > 0 ? wild : tag('issue');
  // Critical unknown tags forbid issuance (section 4.1); so do sets with no issue property
  // only when one of those is present, else any CA may issue.
  const critical = set.records.filter(
    (r) =>
      ((r.flags ?? 0) & 128) !== 0 &&
      !['issue', 'issuewild', 'iodef', 'issuemail', 'issuevmc'].includes(
        r.tag?.toLowerCase() ?? '',
      ),
  );
  const where =
    set.owner === host.toLowerCase().replace(/\.$/, '') ? host : `${host} (through ${set.owner})`;
  if (critical.length > 0) {
    return caaProblem(
      `CAA at ${where} has a critical property "${critical[0].tag}" no CA may ignore, so no CA may issue`,
    );
  }
  if (relevant.length === 0) return undefined;
  const allowed = relevant
    .map((r) => (r.value ?? '').split(';')[0].trim().toLowerCase())
    .filter((d) => d !== '');
  const names = issuerNames(chain);
  const published = caDomains(chain);
  if (allowed.some((domain) => published.has(registrable(domain)) || matchesCa(domain, names)))
    return undefined;
  const issuer = chain[0].json.issuer;
  return caaProblem(
    allowed.length === 0
      ? `CAA at ${where} allows no CA to issue ${wildcard ? 'wildcard ' : ''}certificates, yet this one was issued by "${issuer}"`
      : `CAA at ${where} allows ${allowed.join(', ')}, but the certificate was issued by "${issuer}"`,
  );
}

function caaProblem(message: string): TlsProblem {
  return { code: 'caa_mismatch', severity: 'warning', message };
}

/** O= and CN= of every issuer and CA subject in the chain, letters and digits lower case. */
function issuerNames(chain: readonly ReadCertificate[]): string[] {
  const texts = chain.flatMap((c, i) =>
    i === 0 ? [c.json.issuer] : [c.json.issuer, c.json.subject],
  );
  const out = new Set<string>();
  for (const text of texts) {
    for (const part of text.split(', ')) {
      const match = /^(O|CN)=(.*)$/.exec(part);
      if (match) out.add(squash(match[2]));
    }
  }
  return [...out];
}

/** The registrable domains of the AIA URLs (OCSP, CA Issuers) of every chain certificate. */
export function caDomains(chain: readonly ReadCertificate[]): Set<string> {
  const out = new Set<string>();
  for (const cert of chain) {
    for (const match of (cert.x509.infoAccess ?? '').matchAll(/URI:([^\s,"]+)/g)) {
      try {
        const host = new URL(match[1]).hostname;
        if (host !== '') out.add(registrable(host));
      } catch {
        // not a URL: nothing to learn from it
      }
    }
  }
  return out;
}

function registrable(name: string): string {
  const host = name.toLowerCase().replace(/\.$/, '');
  return getDomain(host, { allowPrivateDomains: false }) ?? host;
}

function matchesCa(domain: string, names: readonly string[]): boolean {
  const known = KNOWN_IDENTIFIERS[domain];
  const labels =
    known ??
    domain
      .split('.')
      .slice(0, -1)
      .map(squash)
      .filter((l) => l.length >= 4);
  return labels.some((label) => names.some((name) => name.includes(label)));
}

function squash(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]/g, '');
}
