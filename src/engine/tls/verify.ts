// The verdict on a chain: OpenSSL's own verification (done in the handshake against the trust
// store, at security level 0 so that every server can be described) raised to OpenSSL's
// default level 2 (keys of at least 112 bits of security, no SHA-1 or MD5 signature below the
// trust anchor, as x509_vfy.c checks them), the name checked by OpenSSL's own X509_check_host as
// `-verify_hostname` checks it (X509_check_ip for an address, as `-verify_ip`), and
// the problems a person reads: each certificate's dates, its key and signature, the chain's
// end. `trusted` is what `openssl s_client -verify_return_error -verify_hostname` decides.
import type { TlsProblem } from '../../contract/shapes';
import { certificateNames } from '../certificate-names';
import { securityBits, WEAK_DIGEST_SIGNATURES, type ReadCertificate } from './certificate';

/** RFC-less but universal: renewals are due a month ahead; three weeks left is a warning. */
export const EXPIRES_SOON_DAYS = 21;
/** OpenSSL security level 2 (SSL_CTX_set_security_level(3)): 112 bits. */
const LEVEL_2_BITS = 112;
const DAY_MS = 86_400_000;

export interface ChainVerdict {
  trusted: boolean;
  /** whether the leaf is for the host (certificate-names.ts) */
  nameMatches: boolean;
  problems: TlsProblem[];
  /** how many certificates of the linked chain the server sent (the rest came from the store) */
  sentCount: number;
}

export interface VerifyInput {
  /** leaf first, linked by issuer, a store-supplied anchor at the end when node found one */
  chain: ReadCertificate[];
  verifyError: string | null;
  /** as normalizeHost gives it (lower case, A-labels, no final dot), or an IP address */
  host: string;
  anchors: ReadonlySet<string>;
  now: number;
  expiresSoonDays?: number;
}

// OpenSSL's verification codes, as node names them, in words.
const VERIFY_TEXT: Record<string, string> = {
  UNABLE_TO_GET_ISSUER_CERT: 'the issuer certificate could not be found',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
    'the issuer certificate is neither sent nor in the trust store',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'the leaf certificate could not be verified',
  CERT_SIGNATURE_FAILURE: 'a certificate signature does not verify',
  CERT_NOT_YET_VALID: 'a certificate is not yet valid',
  CERT_HAS_EXPIRED: 'a certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'the certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'the chain ends in a self-signed root that is not in the trust store',
  INVALID_CA: 'a certificate that is not a CA signed another',
  PATH_LENGTH_EXCEEDED: 'a CA path length constraint is exceeded',
  INVALID_PURPOSE: 'a certificate may not be used for a TLS server',
  CERT_REVOKED: 'a certificate is revoked',
  CERT_UNTRUSTED: 'the root is not trusted for this purpose',
  CERT_REJECTED: 'the root is marked as rejected',
};

// OpenSSL's codes for "no certificate of the chain's issuer": `openssl verify` prints "unable to
// get local issuer certificate" (20) or "unable to verify the first certificate" (21).
const ISSUER_NOT_FOUND = /UNABLE_TO_GET_ISSUER_CERT|UNABLE_TO_VERIFY_LEAF/;

/**
 * What the certificate the chain lacks most likely is. OpenSSL says the same for both (error
 * 20), so the sent chain's shape decides, as SSL Labs tells "chain incomplete" from "not
 * trusted": a server may leave only the root out (RFC 8446 section 4.4.2, RFC 5246 section
 * 7.4.2), so a chain that reaches a CA certificate (cA set, RFC 5280 section 4.2.1.9) lacks
 * its root, one the store does not trust; a chain of the leaf alone lacks the CA that issued
 * it, which in the Web PKI is an intermediate (CA/Browser Forum Baseline Requirements 6.1.7
 * keep root keys from signing server certificates).
 */
function missingIssuer(chain: readonly ReadCertificate[]): 'intermediate' | 'root' {
  const last = chain[chain.length - 1];
  return chain.length > 1 && last.x509.ca ? 'root' : 'intermediate';
}

export function verifyChain(input: VerifyInput): ChainVerdict {
  const { chain, now } = input;
  const problems: TlsProblem[] = [];
  const add = (code: TlsProblem['code'], severity: TlsProblem['severity'], message: string) => {
    if (!problems.some((p) => p.code === code)) problems.push({ code, severity, message });
  };
  const leaf = chain[0];
  const last = chain[chain.length - 1];
  const anchorFromStore =
    chain.length > 1 && last.selfSigned && input.anchors.has(last.json.sha256);
  const sentCount = anchorFromStore ? chain.length - 1 : chain.length;
  const name = (c: ReadCertificate, i: number) =>
    i === 0 ? 'the leaf certificate' : `"${c.json.subject}"`;

  chain.forEach((cert, i) => {
    const { not_before, not_after } = cert.json;
    const after = Date.parse(not_after);
    if (after < now) add('expired', 'error', `${capital(name(cert, i))} expired on ${not_after}`);
    else if (Date.parse(not_before) > now) {
      add('not_yet_valid', 'error', `${capital(name(cert, i))} is valid only from ${not_before}`);
    }
    if (securityBits(cert.json.key_type, cert.json.key_bits) < LEVEL_2_BITS) {
      add(
        'weak_key',
        'error',
        `${capital(name(cert, i))} has a ${cert.json.key_bits}-bit ${cert.json.key_type} key (at least 2048-bit RSA or 224-bit EC is needed)`,
      );
    }
    // A trust anchor's own signature is not checked (it is trusted as a key, not as a signature).
    const isAnchor = i === chain.length - 1 && cert.selfSigned;
    if (!isAnchor && WEAK_DIGEST_SIGNATURES.has(cert.json.signature_algorithm)) {
      add(
        'sha1_signature',
        'error',
        `${capital(name(cert, i))} is signed with ${cert.json.signature_algorithm}, which is no longer accepted`,
      );
    }
  });

  const error = input.verifyError;
  if (leaf.selfSigned && chain.length === 1) {
    if (!input.anchors.has(leaf.json.sha256)) {
      add('self_signed', 'error', 'The certificate is self-signed and not in the trust store');
    }
  } else if (error !== null && ISSUER_NOT_FOUND.test(error) && !last.selfSigned) {
    const missing = missingIssuer(chain);
    if (missing === 'intermediate') {
      add(
        'incomplete_chain',
        'error',
        `The server did not send the certificate that issued "${last.json.subject}" (issuer "${last.json.issuer}"), and the trust store does not have it`,
      );
    } else {
      add(
        'untrusted',
        'error',
        `Not trusted: the chain the server sent ends at the CA "${last.json.subject}", whose issuer "${last.json.issuer}" is not in the trust store (a root this system does not trust, or an intermediate the server did not send)`,
      );
    }
  } else if (error !== null && error !== 'CERT_HAS_EXPIRED' && error !== 'CERT_NOT_YET_VALID') {
    add('untrusted', 'error', `Not trusted: ${VERIFY_TEXT[error] ?? error}`);
  }

  const nameMatches = certificateNames(leaf.x509, input.host);
  if (!nameMatches) {
    const names = [...leaf.json.dns_names, ...leaf.json.ip_addresses];
    add(
      'name_mismatch',
      'error',
      `The certificate is not for ${input.host}` +
        (names.length > 0
          ? ` (it names ${names.slice(0, 5).join(', ')}${names.length > 5 ? '…' : ''})`
          : ` (subject ${leaf.json.subject})`),
    );
  }

  const soon = (input.expiresSoonDays ?? EXPIRES_SOON_DAYS) * DAY_MS;
  chain.forEach((cert, i) => {
    const left = Date.parse(cert.json.not_after) - now;
    if (left >= 0 && left < soon) {
      add(
        'expires_soon',
        'warning',
        `${capital(name(cert, i))} expires in ${cert.json.days_left} day${cert.json.days_left === 1 ? '' : 's'} (${cert.json.not_after})`,
      );
    }
  });

  const trusted = error === null && nameMatches && !problems.some((p) => p.severity === 'error');
  return { trusted, nameMatches, problems, sentCount };
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
