// The addresses of A and AAAA records, read by hand. Every such record of a zone comes through
// here, and the library path (node:net's validating regular expression, then an ipaddr.js parse
// and RFC 5952 reformat per AAAA) was a tenth of the CPU of a 50,000-record check. The plain
// forms are read here; an IPv6 address in any other form (an IPv4 tail, a zone index, or not an
// address at all) is left to the library, which has the last word on it.
import ipaddr from 'ipaddr.js';
import { lazyNet } from '../../builtins';

const DOT = 0x2e;
const COLON = 0x3a;

/**
 * The four octets of a dotted-quad IPv4 address into `out` (from `at`), or false when `text` is
 * not one. Accepts what node:net's isIPv4 accepts: four decimal octets of at most 255, without
 * leading zeros ("010" is ambiguous: BIND reads it as octal).
 */
export function readIPv4(text: string, out: Uint8Array, at: number): boolean {
  return readIPv4In(text, 0, text.length, out, at);
}

/** readIPv4 of text[from, end): the zone parser's plain-record path reads it in place. */
export function readIPv4In(
  text: string,
  from: number,
  end: number,
  out: Uint8Array,
  at: number,
): boolean {
  const n = end;
  let i = from;
  for (let part = 0; part < 4; part++) {
    if (part > 0) {
      if (i >= n || text.charCodeAt(i) !== DOT) return false;
      i++;
    }
    const first = i;
    let value = 0;
    while (i < n && i - first < 3) {
      const c = text.charCodeAt(i) - 0x30;
      if (c < 0 || c > 9) break;
      value = value * 10 + c;
      i++;
    }
    const digits = i - first;
    if (digits === 0 || value > 255 || (digits > 1 && text.charCodeAt(first) === 0x30))
      return false;
    out[at + part] = value;
  }
  return i === n;
}

function hexDigit(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const lower = c | 0x20;
  if (lower >= 0x61 && lower <= 0x66) return lower - 0x61 + 10;
  return -1;
}

/**
 * The eight 16-bit groups of an IPv6 address written as hex groups with at most one "::"
 * (RFC 4291 section 2.2, forms 1 and 2) into `groups`; false when `text` is not in that form.
 */
function readPlainIPv6(text: string, from: number, end: number, groups: Uint16Array): boolean {
  const n = end;
  let count = 0;
  // where "::" stands, as the number of groups before it; -1 when there is none
  let gap = -1;
  let i = from;
  if (n - from >= 2 && text.charCodeAt(from) === COLON) {
    if (text.charCodeAt(from + 1) !== COLON) return false;
    gap = 0;
    i = from + 2;
  }
  while (i < n) {
    const first = i;
    let value = 0;
    for (; i < n; i++) {
      const d = hexDigit(text.charCodeAt(i));
      if (d < 0) break;
      value = value * 16 + d;
    }
    if (i === first || i - first > 4 || count === 8) return false;
    groups[count++] = value;
    if (i === n) break;
    if (text.charCodeAt(i) !== COLON) return false;
    i++;
    if (i < n && text.charCodeAt(i) === COLON) {
      if (gap >= 0) return false;
      gap = count;
      i++;
    } else if (i === n) {
      return false;
    }
  }
  if (gap < 0) return count === 8;
  if (count > 7) return false;
  const after = count - gap;
  for (let k = 1; k <= after; k++) groups[8 - k] = groups[count - k];
  for (let k = gap; k < 8 - after; k++) groups[k] = 0;
  return true;
}

/**
 * RFC 5952 section 4: lower case, no leading zeros, the longest (first) run of two or more zero
 * groups as "::"; and, as section 5 recommends for IPv4-mapped addresses and as BIND (the BSD
 * inet_ntop) prints them and the IPv4-compatible ones (::/96 but "::" and "::1"), the last 32
 * bits in dotted decimal.
 */
function formatIPv6(groups: Uint16Array): string {
  if (groups[0] === 0 && groups[1] === 0 && groups[2] === 0 && groups[3] === 0) {
    const mapped = groups[4] === 0 && groups[5] === 0xffff;
    const compatible = groups[4] === 0 && groups[5] === 0 && groups[6] !== 0;
    if (mapped || compatible) {
      const v4 = `${groups[6] >>> 8}.${groups[6] & 0xff}.${groups[7] >>> 8}.${groups[7] & 0xff}`;
      return mapped ? `::ffff:${v4}` : `::${v4}`;
    }
  }
  let runAt = -1;
  let runLength = 1;
  for (let k = 0; k < 8;) {
    if (groups[k] !== 0) {
      k++;
      continue;
    }
    let end = k;
    while (end < 8 && groups[end] === 0) end++;
    if (end - k > runLength) {
      runAt = k;
      runLength = end - k;
    }
    k = end;
  }
  if (runAt < 0) return joinGroups(groups, 0, 8);
  return `${joinGroups(groups, 0, runAt)}::${joinGroups(groups, runAt + runLength, 8)}`;
}

function joinGroups(groups: Uint16Array, from: number, to: number): string {
  let out = '';
  for (let k = from; k < to; k++)
    out += k === from ? groups[k].toString(16) : `:${groups[k].toString(16)}`;
  return out;
}

const scratchGroups = new Uint16Array(8);

/**
 * An IPv6 address as node:net's isIPv6 accepts it, zone indexes refused: its 16 octets into
 * `out` (from `at`) and its text (formatIPv6), or undefined when `text` is not one.
 */
export function readIPv6(text: string, out: Uint8Array, at: number): string | undefined {
  if (!readIPv6Octets(text, out, at)) return undefined;
  for (let k = 0; k < 8; k++) scratchGroups[k] = (out[at + 2 * k] << 8) | out[at + 2 * k + 1];
  return formatIPv6(scratchGroups);
}

/**
 * readIPv6 without the text: whether `text` is an IPv6 address, its 16 octets into `out` (from
 * `at`). The zone parser asks this of every AAAA record, whose text it prints from the octets
 * only when asked (rows.ts).
 */
export function readIPv6Octets(text: string, out: Uint8Array, at: number): boolean {
  if (readPlainIPv6OctetsIn(text, 0, text.length, out, at)) return true;
  if (!lazyNet().isIPv6(text) || text.includes('%')) return false;
  // ipaddr.js reads "::a.b.c.d" as IPv4-mapped (::ffff:a.b.c.d): the IPv4 tail is read here,
  // as two groups of the hex form
  const tail = text.lastIndexOf(':');
  let hex = text;
  if (text.includes('.', tail)) {
    const v4 = ipaddr.IPv4.parse(text.slice(tail + 1)).toByteArray();
    hex = `${text.slice(0, tail + 1)}${((v4[0] << 8) | v4[1]).toString(16)}:${((v4[2] << 8) | v4[3]).toString(16)}`;
  }
  out.set(ipaddr.IPv6.parse(hex).toByteArray(), at);
  return true;
}

/**
 * The octets of an IPv6 address of text[from, end) in the plain form readPlainIPv6 reads, into
 * `out` (from `at`); false for any other text, which may still be an address in another form
 * (readIPv6Octets reads those).
 */
export function readPlainIPv6OctetsIn(
  text: string,
  from: number,
  end: number,
  out: Uint8Array,
  at: number,
): boolean {
  if (!readPlainIPv6(text, from, end, scratchGroups)) return false;
  for (let k = 0; k < 8; k++) {
    out[at + 2 * k] = scratchGroups[k] >>> 8;
    out[at + 2 * k + 1] = scratchGroups[k] & 0xff;
  }
  return true;
}

/** The presentation of 16 octets of IPv6 address (formatIPv6's form). */
export function ipv6Text(bytes: ArrayLike<number>): string {
  const groups = new Uint16Array(8);
  for (let k = 0; k < 8; k++) groups[k] = (bytes[2 * k] << 8) | bytes[2 * k + 1];
  return formatIPv6(groups);
}
