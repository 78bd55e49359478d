// Character-strings and label octets as text (RFC 1035 section 5.1), both ways: `\DDD` is one
// octet in decimal, `\X` is X itself. Printers: `escapedText` (a character-string)
// and `escapeLabel`, the master-file forms the zone parser and `zone-check --print` use (as BIND
// prints them), and `bytesText`, the form of the contract's JSON (UTF-8 kept when valid, as
// the answers of a look-up show it).

const BACKSLASH = 0x5c;
const QUOTE = 0x22;
/**
 * The label octets printed escaped, as BIND's dns_name_totext prints them (checked against
 * named-compilezone 9.18 on every octet): the non-printable ones as `\DDD`, and with a
 * backslash the printable ones RFC 1035 section 5.1 gives a meaning in a master file: `"` `(`
 * `)` `;` (quotes, parentheses, comments), `.` (the label separator), `\`, and `@` and `$`
 * (the origin, a directive). Every other printable octet is plain.
 */
const LABEL_ESCAPED = new Uint8Array(256).map((_, b) =>
  b <= 0x20 || b >= 0x7f || [0x22, 0x24, 0x28, 0x29, 0x2e, 0x3b, 0x40, 0x5c].includes(b) ? 1 : 0,
);

export function decimal(byte: number): string {
  return `\\${byte.toString().padStart(3, '0')}`;
}

/**
 * The octets of a character-string or word as RFC 1035 section 5.1 reads it: `\DDD` is one
 * octet in decimal, `\X` is X itself. Characters beyond ASCII count as their UTF-8 octets.
 * Returns undefined when a `\DDD` is over 255.
 */
export function unescapeOctets(text: string): number[] | undefined {
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH && i + 1 < text.length) {
      // \DDD read by char code: TXT strings with escapes come through here by the thousand
      const d1 = digitAt(text, i + 1);
      const d2 = digitAt(text, i + 2);
      const d3 = digitAt(text, i + 3);
      if (d1 >= 0 && d2 >= 0 && d3 >= 0) {
        const value = d1 * 100 + d2 * 10 + d3;
        if (value > 255) return undefined;
        out.push(value);
        i += 3;
      } else {
        i++;
        pushChar(out, text, i);
        if (text.charCodeAt(i) >= 0xd800 && text.charCodeAt(i) <= 0xdbff) i++;
      }
    } else if (c < 0x80) {
      out.push(c);
    } else {
      pushChar(out, text, i);
      if (c >= 0xd800 && c <= 0xdbff) i++;
    }
  }
  return out;
}

/** The decimal digit at `i`, or -1 (also past the end). */
function digitAt(text: string, i: number): number {
  const c = text.charCodeAt(i) - 0x30;
  return c >= 0 && c <= 9 ? c : -1;
}

function pushChar(out: number[], text: string, i: number): void {
  const cp = text.codePointAt(i) ?? 0;
  if (cp < 0x80) out.push(cp);
  else for (const b of Buffer.from(String.fromCodePoint(cp), 'utf8')) out.push(b);
}

/** Whether a label octet is printed escaped (`\X` or `\DDD`) in the master-file form. */
export function escapedInLabel(b: number): boolean {
  return LABEL_ESCAPED[b] === 1;
}

/** A label's octets in the master-file form BIND prints: see LABEL_ESCAPED; the rest `\DDD`. */
export function escapeLabel(octets: ArrayLike<number>): string {
  let out = '';
  for (let i = 0; i < octets.length; i++) {
    const b = octets[i];
    if (!escapedInLabel(b)) out += String.fromCharCode(b);
    else if (b > 0x20 && b < 0x7f) out += `\\${String.fromCharCode(b)}`;
    else out += decimal(b);
  }
  return out;
}

/**
 * Bytes of a character-string in the RFC 1035 presentation form, without the quotes: printable
 * ASCII and the blank as they are, `"` and `\` escaped, the rest `\DDD`.
 */
export function escapedText(bytes: ArrayLike<number>): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (byte === QUOTE || byte === BACKSLASH) out += `\\${String.fromCharCode(byte)}`;
    else if (byte >= 0x20 && byte < 0x7f) out += String.fromCharCode(byte);
    else out += decimal(byte);
  }
  return out;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Text of character-string bytes: their UTF-8 decoding when they are valid UTF-8 (so "café"
 * reads as written), otherwise the presentation form with `\DDD` escapes, so nothing is lost.
 */
export function bytesText(bytes: Uint8Array): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return escapedText(bytes);
  }
}

export function isUtf8(bytes: Uint8Array): boolean {
  try {
    strictUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}
