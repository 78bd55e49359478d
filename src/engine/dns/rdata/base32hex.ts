// Base 32 with the extended hex alphabet (RFC 4648 section 7) without padding, as NSEC3 spells
// hashes: in its next-hashed-owner field and in its owner's first label (RFC 5155 section 3.3).

const DIGITS = '0123456789abcdefghijklmnopqrstuv';

/**
 * The octets of base32hex text (either case), or undefined when it is not a whole encoding:
 * another character, a length no octet count gives (1, 3 or 6 digits past a multiple of 8),
 * or bits left over that are not zero (RFC 4648 section 6).
 */
export function fromBase32Hex(text: string): Buffer | undefined {
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const c of text.toLowerCase()) {
    const digit = DIGITS.indexOf(c);
    if (digit < 0) return undefined;
    value = ((value << 5) | digit) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out.push((value >> bits) & 0xff);
    }
  }
  if (bits >= 5 || (value & ((1 << bits) - 1)) !== 0) return undefined;
  return Buffer.from(out);
}

/** Octets as base32hex text, lower case. */
export function toBase32Hex(octets: Uint8Array): string {
  let out = '';
  let value = 0;
  let bits = 0;
  for (const b of octets) {
    value = ((value << 8) | b) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      out += DIGITS[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += DIGITS[(value << (5 - bits)) & 31];
  return out;
}
