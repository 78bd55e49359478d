// One certificate as the TLS answer lists it (contract TlsCertificate), read with node:crypto's
// X509Certificate. Node 20 does not name a certificate's signature algorithm, so that one field
// is read from the DER (RFC 5280 section 4.1: Certificate ::= SEQUENCE { tbsCertificate,
// signatureAlgorithm, signatureValue }): a walk of three headers, not a general ASN.1 parser.
import { createHash, X509Certificate } from 'node:crypto';
import type { TlsCertificate } from '../../contract/shapes';

const DAY_MS = 86_400_000;

// OpenSSL's long names, so the text reads as `openssl x509 -text` prints it.
const SIGNATURE_ALGORITHMS: Record<string, string> = {
  '1.2.840.113549.1.1.4': 'md5WithRSAEncryption',
  '1.2.840.113549.1.1.5': 'sha1WithRSAEncryption',
  '1.2.840.113549.1.1.10': 'rsassaPss',
  '1.2.840.113549.1.1.11': 'sha256WithRSAEncryption',
  '1.2.840.113549.1.1.12': 'sha384WithRSAEncryption',
  '1.2.840.113549.1.1.13': 'sha512WithRSAEncryption',
  '1.2.840.113549.1.1.14': 'sha224WithRSAEncryption',
  '1.2.840.10045.4.1': 'ecdsa-with-SHA1',
  '1.2.840.10045.4.3.1': 'ecdsa-with-SHA224',
  '1.2.840.10045.4.3.2': 'ecdsa-with-SHA256',
  '1.2.840.10045.4.3.3': 'ecdsa-with-SHA384',
  '1.2.840.10045.4.3.4': 'ecdsa-with-SHA512',
  '1.2.840.10040.4.3': 'dsaWithSHA1',
  '1.3.101.112': 'ED25519',
  '1.3.101.113': 'ED448',
};

/** Signature algorithms whose digest is SHA-1 or weaker (MD5): what OpenSSL's level 1+ refuses. */
export const WEAK_DIGEST_SIGNATURES = new Set([
  'md5WithRSAEncryption',
  'sha1WithRSAEncryption',
  'ecdsa-with-SHA1',
  'dsaWithSHA1',
]);

const CURVE_BITS: Record<string, number> = {
  prime256v1: 256,
  secp256k1: 256,
  secp384r1: 384,
  secp521r1: 521,
  secp224r1: 224,
  prime192v1: 192,
};

const KEY_NAMES: Record<string, string> = {
  rsa: 'RSA',
  'rsa-pss': 'RSA-PSS',
  dsa: 'DSA',
  ec: 'EC',
  ed25519: 'Ed25519',
  ed448: 'Ed448',
};

export interface ReadCertificate {
  json: TlsCertificate;
  x509: X509Certificate;
  /** the DER as received */
  der: Buffer;
  selfSigned: boolean;
}

export function readCertificate(der: Buffer, now: number): ReadCertificate {
  const x509 = new X509Certificate(der);
  const notBefore = Date.parse(x509.validFrom);
  const notAfter = Date.parse(x509.validTo);
  const { dnsNames, ipAddresses } = alternativeNames(x509.subjectAltName);
  const key = keyOf(x509);
  const json: TlsCertificate = {
    subject: distinguishedName(x509.subject),
    issuer: distinguishedName(x509.issuer),
    serial: x509.serialNumber.toLowerCase(),
    not_before: new Date(notBefore).toISOString(),
    not_after: new Date(notAfter).toISOString(),
    days_left: Math.floor((notAfter - now) / DAY_MS),
    dns_names: dnsNames,
    ip_addresses: ipAddresses,
    key_type: key.type,
    key_bits: key.bits,
    signature_algorithm: signatureAlgorithm(der),
    sha256: createHash('sha256').update(der).digest('hex'),
  };
  // Self-issued and verifying under its own key: a root, or a leaf made with `openssl req -x509`.
  const selfSigned = x509.checkIssued(x509) && verifiesItself(x509);
  return { json, x509, der, selfSigned };
}

function verifiesItself(x509: X509Certificate): boolean {
  try {
    return x509.verify(x509.publicKey);
  } catch {
    return false;
  }
}

/** "CN=a\nO=b" (node's form) as "CN=a, O=b". */
function distinguishedName(text: string): string {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .join(', ');
}

/**
 * Node writes the extension as "DNS:a, IP Address:1.2.3.4", quoting an entry that holds a
 * comma or quote as JSON (node >= 17.3.1), which is read back with JSON.parse.
 */
export function alternativeNames(text: string | undefined): {
  dnsNames: string[];
  ipAddresses: string[];
} {
  const dnsNames: string[] = [];
  const ipAddresses: string[] = [];
  if (text === undefined) return { dnsNames, ipAddresses };
  const entry = /\s*([A-Za-z ]+):("(?:[^"\\]|\\.)*"|[^,]*)(?:,|$)/gy;
  let match: RegExpExecArray | null;
  while ((match = entry.exec(text)) !== null && match[0] !== '') {
    const [, kind, raw] = match;
    let value = raw;
    if (raw.startsWith('"')) {
      try {
        value = JSON.parse(raw) as string;
      } catch {
        value = raw;
      }
    }
    if (kind === 'DNS') dnsNames.push(value.toLowerCase());
    else if (kind === 'IP Address') ipAddresses.push(value);
  }
  return { dnsNames, ipAddresses };
}

function keyOf(x509: X509Certificate): { type: string; bits: number } {
  const key = x509.publicKey;
  const type = key.asymmetricKeyType ?? 'unknown';
  const details = key.asymmetricKeyDetails ?? {};
  let bits = details.modulusLength ?? 0;
  if (type === 'ec') bits = CURVE_BITS[details.namedCurve ?? ''] ?? 0;
  if (type === 'ed25519') bits = 256;
  if (type === 'ed448') bits = 456;
  return { type: KEY_NAMES[type] ?? type, bits };
}

/**
 * Security bits of a key as OpenSSL counts them (EVP_PKEY_get_security_bits; the RSA/DSA
 * figures are NIST SP 800-57's): what its security levels compare against.
 */
export function securityBits(keyType: string, bits: number): number {
  if (keyType === 'EC' || keyType === 'Ed25519' || keyType === 'Ed448') return Math.floor(bits / 2);
  if (bits >= 15360) return 256;
  if (bits >= 7680) return 192;
  if (bits >= 3072) return 128;
  if (bits >= 2048) return 112;
  if (bits >= 1024) return 80;
  return 0;
}

/** The OID of the outer signatureAlgorithm, named; "unknown" when the DER does not read. */
export function signatureAlgorithm(der: Buffer): string {
  const outer = header(der, 0);
  if (outer === undefined) return 'unknown';
  const tbs = header(der, outer.body);
  if (tbs === undefined) return 'unknown';
  const algorithm = header(der, tbs.end);
  if (algorithm === undefined) return 'unknown';
  const oid = header(der, algorithm.body);
  if (oid === undefined || der[algorithm.body] !== 0x06) return 'unknown';
  const text = oidText(der.subarray(oid.body, oid.end));
  return SIGNATURE_ALGORITHMS[text] ?? text;
}

/** One DER header at `at`: where its body starts and where the element ends. */
function header(der: Buffer, at: number): { body: number; end: number } | undefined {
  if (at + 2 > der.length) return undefined;
  let length = der[at + 1];
  let body = at + 2;
  if (length & 0x80) {
    const count = length & 0x7f;
    if (count === 0 || count > 4 || body + count > der.length) return undefined;
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + der[body + i];
    body += count;
  }
  const end = body + length;
  return end <= der.length ? { body, end } : undefined;
}

function oidText(bytes: Buffer): string {
  if (bytes.length === 0) return '';
  const parts = [Math.floor(bytes[0] / 40), bytes[0] % 40];
  let value = 0;
  for (const byte of bytes.subarray(1)) {
    value = value * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) {
      parts.push(value);
      value = 0;
    }
  }
  return parts.join('.');
}
