// DNSSEC's cryptography over node:crypto: signature checks for the algorithms a validator is
// expected to support today (RFC 8624): 8 and 10 (RSA, RFC 5702), 13 and 14 (ECDSA, RFC 6605),
// 15 and 16 (EdDSA, RFC 8080). 5 and 7 (RSA/SHA-1) are still validated, as BIND and Unbound
// do, but reported as deprecated (RFC 8624 section 3.1: not to be used for signing).
import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import type { DnskeyData } from '../keys';

export const ALGORITHM_NAMES: Record<number, string> = {
  1: 'RSAMD5',
  3: 'DSA',
  5: 'RSASHA1',
  6: 'DSA-NSEC3-SHA1',
  7: 'RSASHA1-NSEC3-SHA1',
  8: 'RSASHA256',
  10: 'RSASHA512',
  12: 'ECC-GOST',
  13: 'ECDSAP256SHA256',
  14: 'ECDSAP384SHA384',
  15: 'ED25519',
  16: 'ED448',
};

export const DEPRECATED_ALGORITHMS: ReadonlySet<number> = new Set([1, 3, 5, 6, 7, 12]);
const SUPPORTED_ALGORITHMS: ReadonlySet<number> = new Set([5, 7, 8, 10, 13, 14, 15, 16]);

export function algorithmName(algorithm: number): string {
  return ALGORITHM_NAMES[algorithm] ?? `algorithm ${algorithm}`;
}

export function isSupportedAlgorithm(algorithm: number): boolean {
  return SUPPORTED_ALGORITHMS.has(algorithm);
}

/** The key's size in bits: the RSA modulus, the curve's order, 0 when it does not parse. */
export function keyBits(key: DnskeyData): number {
  if (RSA_ALGORITHMS.has(key.algorithm)) {
    const parts = rsaParts(key.key);
    if (parts === undefined) return 0;
    let n = parts.modulus;
    let skip = 0;
    while (skip < n.length && n[skip] === 0) skip++;
    n = n.subarray(skip);
    return n.length === 0 ? 0 : (n.length - 1) * 8 + (32 - Math.clz32(n[0]));
  }
  switch (key.algorithm) {
    case 13:
      return 256;
    case 14:
      return 384;
    case 15:
      return 256;
    case 16:
      return 456;
    default:
      return 0;
  }
}

/** RSA/SHA-1 (5), RSASHA1-NSEC3-SHA1 (7), RSA/SHA-256 (8), RSA/SHA-512 (10). */
const RSA_ALGORITHMS: ReadonlySet<number> = new Set([5, 7, 8, 10]);

/** RFC 3110 section 2: exponent length (1 octet, or 0 and 2 octets), exponent, modulus. */
function rsaParts(data: Buffer): { exponent: Buffer; modulus: Buffer } | undefined {
  if (data.length < 3) return undefined;
  let offset = 1;
  let expLength = data[0];
  if (expLength === 0) {
    expLength = data.readUInt16BE(1);
    offset = 3;
  }
  if (expLength === 0 || offset + expLength >= data.length) return undefined;
  return {
    exponent: data.subarray(offset, offset + expLength),
    modulus: data.subarray(offset + expLength),
  };
}

const b64url = (b: Buffer) => b.toString('base64url');

/** The key as node:crypto takes it, or undefined when the bytes are not a key of its algorithm. */
function publicKey(key: DnskeyData): KeyObject | undefined {
  try {
    switch (key.algorithm) {
      case 5:
      case 7:
      case 8:
      case 10: {
        const parts = rsaParts(key.key);
        if (parts === undefined) return undefined;
        return createPublicKey({
          key: { kty: 'RSA', n: b64url(parts.modulus), e: b64url(parts.exponent) },
          format: 'jwk',
        });
      }
      case 13:
      case 14: {
        const size = key.algorithm === 13 ? 32 : 48;
        if (key.key.length !== size * 2) return undefined;
        return createPublicKey({
          key: {
            kty: 'EC',
            crv: key.algorithm === 13 ? 'P-256' : 'P-384',
            x: b64url(key.key.subarray(0, size)),
            y: b64url(key.key.subarray(size)),
          },
          format: 'jwk',
        });
      }
      case 15:
      case 16: {
        const size = key.algorithm === 15 ? 32 : 57;
        if (key.key.length !== size) return undefined;
        return createPublicKey({
          key: { kty: 'OKP', crv: key.algorithm === 15 ? 'Ed25519' : 'Ed448', x: b64url(key.key) },
          format: 'jwk',
        });
      }
      default:
        return undefined;
    }
  } catch {
    return undefined;
  }
}

const HASH_OF: Record<number, string | null> = {
  5: 'sha1',
  7: 'sha1',
  8: 'sha256',
  10: 'sha512',
  13: 'sha256',
  14: 'sha384',
  15: null,
  16: null,
};

/** Whether `signature` is a valid signature of `data` by `key`; never throws. */
export function verifySignature(key: DnskeyData, data: Buffer, signature: Buffer): boolean {
  if (!isSupportedAlgorithm(key.algorithm)) return false;
  const keyObject = publicKey(key);
  if (keyObject === undefined) return false;
  const hash = HASH_OF[key.algorithm] ?? null;
  try {
    if (key.algorithm === 13 || key.algorithm === 14) {
      const size = key.algorithm === 13 ? 64 : 96;
      if (signature.length !== size) return false;
      return verify(hash, data, { key: keyObject, dsaEncoding: 'ieee-p1363' }, signature);
    }
    return verify(hash, data, keyObject, signature);
  } catch {
    return false;
  }
}
