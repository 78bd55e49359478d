// DNSKEY key tags (RFC 4034 appendix B) and DS digests (RFC 4034 section 5.1.4, RFC 4509,
// RFC 6605), where both the zone checks (zone/: a DS that matches no key of the file) and the
// validator (dnssec/: the chain of trust) take them from.
import { lazyCrypto } from '../builtins';
import { keyWire } from './names';

export interface DnskeyData {
  flags: number;
  algorithm: number;
  key: Buffer;
}

export const ZONE_KEY_FLAG = 0x0100;
export const REVOKE_FLAG = 0x0080;

/** The hash and the digest length of each DS digest type (IANA "Delegation Signer Digest Algorithms"). */
export const DIGESTS: Record<number, { hash: string | undefined; length: number }> = {
  1: { hash: 'sha1', length: 20 },
  2: { hash: 'sha256', length: 32 },
  // GOST R 34.11-94 (RFC 5933): a length to check, no hash to compute it with
  3: { hash: undefined, length: 32 },
  4: { hash: 'sha384', length: 48 },
};

export function isSupportedDigest(digestType: number): boolean {
  return DIGESTS[digestType]?.hash !== undefined;
}

/** The DNSKEY RDATA as it is on the wire (flags, protocol 3, algorithm, key). */
export function dnskeyRdata(key: DnskeyData): Buffer {
  const out = Buffer.alloc(4 + key.key.length);
  out.writeUInt16BE(key.flags & 0xffff, 0);
  out[2] = 3;
  out[3] = key.algorithm & 0xff;
  key.key.copy(out, 4);
  return out;
}

/** RFC 4034 appendix B (algorithm 1's different rule is moot: it is not supported). */
export function keyTag(key: DnskeyData): number {
  const rdata = dnskeyRdata(key);
  let acc = 0;
  for (let i = 0; i < rdata.length; i++) acc += i & 1 ? rdata[i] : rdata[i] << 8;
  acc += (acc >> 16) & 0xffff;
  return acc & 0xffff;
}

/**
 * The digest a DS record of this type holds for the key owned by `owner` (a lower-case key);
 * undefined for a digest type without a hash here.
 */
export function dsDigest(owner: string, key: DnskeyData, digestType: number): Buffer | undefined {
  const hash = DIGESTS[digestType]?.hash;
  if (hash === undefined) return undefined;
  return lazyCrypto().createHash(hash).update(keyWire(owner)).update(dnskeyRdata(key)).digest();
}
