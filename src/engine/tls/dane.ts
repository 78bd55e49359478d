// DANE (RFC 6698, RFC 7671): the TLSA records of `_port._tcp.host` against the chain the
// server sent. Only a DNSSEC-secure TLSA answer may be used (RFC 7672 section 2.2, RFC 6698
// section 4.1); for SMTP the PKIX usages 0 and 1 are unusable too (RFC 7672 section 3.1.3).
// DANE-EE(3) matches the leaf and nothing else is checked (RFC 7671 section 5.1); DANE-TA(2)
// makes its certificate or key the trust anchor of a path validated up to the leaf, which carries
// the name (section 5.2); PKIX-TA(0) and PKIX-EE(1) also need the PKIX verdict.
import { createHash, createPublicKey, X509Certificate, type KeyObject } from 'node:crypto';
import type { TlsDane, TlsProblem } from '../../contract/shapes';
import type { ValidatedAnswer } from '../dns/dnssec/index';
import type { ReadCertificate } from './certificate';

interface Tlsa {
  usage: number;
  selector: number;
  matching_type: number;
  data: Buffer;
}

export interface DaneInput {
  host: string;
  port: number;
  smtp: boolean;
  /** the chain as sent, leaf first */
  sent: readonly ReadCertificate[];
  /** the linked chain with a store anchor, for PKIX-TA */
  linked: readonly ReadCertificate[];
  /** PKIX verdict (OpenSSL's) and whether the leaf names the host */
  trusted: boolean;
  nameMatches: boolean;
  /** the time the certificates' dates are read at (ms since the epoch) */
  now: number;
  /** the validated answer for tlsaName(host, port), asked while the handshake ran */
  answer: Promise<ValidatedAnswer>;
}

export interface DaneOutcome {
  dane: TlsDane;
  problem?: TlsProblem;
}

export function tlsaName(host: string, port: number): string {
  return `_${port}._tcp.${host.toLowerCase().replace(/\.$/, '')}`;
}

/** undefined when the name has no TLSA records (no DANE) or they could not be asked. */
export async function checkDane(input: DaneInput): Promise<DaneOutcome | undefined> {
  const name = tlsaName(input.host, input.port);
  let answer: ValidatedAnswer;
  try {
    answer = await input.answer;
  } catch (err) {
    if ((err as { code?: string }).code === 'cancelled') throw err;
    return undefined;
  }
  const records = answer.data.map(toTlsa).filter((r): r is Tlsa => r !== undefined);
  if (records.length === 0) return undefined;
  const dane: Omit<TlsDane, 'status'> = {
    name: `${name}.`,
    dnssec: answer.status,
    records: records.map(
      (r) => `${r.usage} ${r.selector} ${r.matching_type} ${r.data.toString('hex')}`,
    ),
  };
  if (answer.status !== 'secure') {
    return unusable(
      dane,
      `The TLSA records at ${name} are not DNSSEC-secure (${answer.status}: ${answer.reason}), so they cannot be used (RFC 7672 section 2.2)`,
    );
  }
  const usable = strongestDigests(records.filter((r) => isUsable(r, input.smtp)));
  if (usable.length === 0) {
    return unusable(
      dane,
      `None of the TLSA records at ${name} has a usage, selector and matching type ${input.smtp ? 'SMTP may use (DANE-TA or DANE-EE, RFC 7672 section 3.1.3)' : 'this client knows'}`,
    );
  }
  if (usable.some((r) => matches(r, input))) return { dane: { status: 'match', ...dane } };
  return {
    dane: { status: 'mismatch', ...dane },
    problem: {
      code: 'dane_mismatch',
      severity: 'error',
      message:
        `No TLSA record at ${name} matches the certificates the server sent (${usable.length} usable record${usable.length === 1 ? '' : 's'})` +
        storeRootNote(usable, input),
    },
  };
}

/**
 * A DANE-TA record of the chain's root, when the trust store holds that root: DANE clients take
 * it as the anchor only if the server sent it (RFC 7671 section 5.2), and node links the store's
 * copy in the same place as a sent one, so this look-up cannot tell which it was and counts it
 * as not sent.
 */
function storeRootNote(usable: readonly Tlsa[], input: DaneInput): string {
  if (input.linked.length <= input.sent.length) return '';
  const root = input.linked[input.linked.length - 1];
  if (!usable.some((r) => r.usage === 2 && associates(r, root))) return '';
  return `; a DANE-TA record names the root "${root.json.subject}", which matches only if the server sends it, and this look-up cannot tell whether it does since the trust store holds it too`;
}

function unusable(dane: Omit<TlsDane, 'status'>, message: string): DaneOutcome {
  return {
    dane: { status: 'unusable', ...dane },
    problem: { code: 'dane_unusable', severity: 'warning', message },
  };
}

/**
 * Digest algorithm agility (RFC 7671 section 9): of the records with one usage and selector, a
 * client uses those of the strongest digest present, so a stale SHA2-256 record beside SHA2-512
 * ones is not used (as OpenSSL does). Full(0) records are no digest and always used.
 */
function strongestDigests(records: Tlsa[]): Tlsa[] {
  const hasSha512 = (r: Tlsa) =>
    records.some((o) => o.matching_type === 2 && o.usage === r.usage && o.selector === r.selector);
  return records.filter((r) => r.matching_type !== 1 || !hasSha512(r));
}

function toTlsa(data: Record<string, unknown>): Tlsa | undefined {
  const { usage, selector, matching_type, data: bytes } = data;
  if (typeof usage !== 'number' || typeof selector !== 'number') return undefined;
  if (typeof matching_type !== 'number' || !Buffer.isBuffer(bytes)) return undefined;
  return { usage, selector, matching_type, data: bytes };
}

function isUsable(r: Tlsa, smtp: boolean): boolean {
  if (r.usage > 3 || r.selector > 1 || r.matching_type > 2) return false;
  return !smtp || r.usage >= 2;
}

function matches(r: Tlsa, input: DaneInput): boolean {
  const leaf = input.sent[0];
  switch (r.usage) {
    case 3:
      return associates(r, leaf);
    case 1:
      return input.trusted && associates(r, leaf);
    case 0:
      return input.trusted && input.linked.slice(1).some((c) => associates(r, c));
    default:
      return input.nameMatches && chainsToAnchor(r, input);
  }
}

/**
 * DANE-TA (RFC 7671 section 5.2): the record names a trust anchor and the leaf's path from it is
 * validated: each certificate below the anchor within its dates and signed by the next one up.
 * The anchor is a certificate the server sent above the leaf, or one the record carries whole:
 * the certificate (2 0 0) or its public key (2 1 0), which the server need not send.
 */
function chainsToAnchor(r: Tlsa, input: DaneInput): boolean {
  const carried = r.matching_type === 0 ? carriedKey(r) : undefined;
  const sent = input.sent;
  for (let i = 0; i < sent.length; i++) {
    if (!withinDates(sent[i], input.now)) return false;
    if (carried !== undefined && signedBy(sent[i], carried)) return true;
    if (i + 1 === sent.length) return false;
    if (!signedBy(sent[i], sent[i + 1].x509.publicKey)) return false;
    if (associates(r, sent[i + 1])) return true;
  }
  return false;
}

/** The public key a 2 0 0 or 2 1 0 record carries, or undefined when its data is none. */
function carriedKey(r: Tlsa): KeyObject | undefined {
  try {
    return r.selector === 0
      ? new X509Certificate(r.data).publicKey
      : createPublicKey({ key: r.data, format: 'der', type: 'spki' });
  } catch {
    return undefined;
  }
}

function withinDates(cert: ReadCertificate, now: number): boolean {
  return Date.parse(cert.json.not_before) <= now && now <= Date.parse(cert.json.not_after);
}

function signedBy(child: ReadCertificate, issuerKey: KeyObject): boolean {
  try {
    return child.x509.verify(issuerKey);
  } catch {
    return false;
  }
}

function associates(r: Tlsa, cert: ReadCertificate): boolean {
  const selected =
    r.selector === 0 ? cert.der : cert.x509.publicKey.export({ type: 'spki', format: 'der' });
  const digest =
    r.matching_type === 0
      ? selected
      : createHash(r.matching_type === 1 ? 'sha256' : 'sha512')
          .update(selected)
          .digest();
  return digest.equals(r.data);
}
