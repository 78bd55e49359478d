// Base 32 with the extended hex alphabet (RFC 4648 section 7) without padding, as NSEC3 spells
// hashes: in its next-hashed-owner field and in its owner's first label (RFC 5155 section 3.3).

const DIGITS = '0123456789abcdefghijklmnopqrstuv';

/** The value of each base32hex digit by char code (either case), -1 for other characters. */
const DIGIT_VALUES = new Int8Array(128).fill(-1);
for (let i = 0; i < 32; i++) {
  DIGIT_VALUES[DIGITS.charCodeAt(i)] = i;
  DIGIT_VALUES[DIGITS.toUpperCase().charCodeAt(i)] = i;
}

/** The value of the base32hex digit with char code `c` (either case), or -1. */
export function base32HexDigit(c: number): number {
  return c < 128 ? DIGIT_VALUES[c] : -1;
}

/**
 * Whether `text` is a whole base32hex encoding, as fromBase32Hex takes it, without decoding it
 * (every NSEC3 owner's first label is asked).
 */
export function isBase32Hex(text: string): boolean {
  const bits = (text.length * 5) % 8;
  if (bits >= 5) return false;
  for (let i = 0; i < text.length; i++) if (base32HexDigit(text.charCodeAt(i)) < 0) return false;
  // the bits past the last whole octet are the low ones of the last digit
  return (
    text.length === 0 ||
    (base32HexDigit(text.charCodeAt(text.length - 1)) & ((1 << bits) - 1)) === 0
  );
}

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
