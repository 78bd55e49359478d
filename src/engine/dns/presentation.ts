// Character-strings and label octets as text (RFC 1035 section 5.1), both ways: `\DDD` is one
// octet in decimal, `\X` is X itself. Two printers: `escapeOctets`, the master-file form the
// zone parser and `zone-check --print` use (as BIND prints), and `escapedText`/`bytesText`, the
// form of the contract's JSON (UTF-8 kept when valid, as the answers of a look-up show it).

const BACKSLASH = 0x5c;
const QUOTE = 0x22;
/** What ends a word outside quotes (RFC 1035 section 5.1): `;`, `(`, `)` and the blanks. */
const ENDS_WORD = new Set([0x3b, 0x28, 0x29]);

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

/** Octets back to presentation: printable ASCII as is, `"` `\` `;` escaped, the rest `\DDD`. */
export function escapeOctets(octets: ArrayLike<number>, inQuotes: boolean): string {
  let out = '';
  for (let i = 0; i < octets.length; i++) {
    const b = octets[i];
    if (b === QUOTE || b === BACKSLASH || (!inQuotes && ENDS_WORD.has(b)))
      out += `\\${String.fromCharCode(b)}`;
    else if (b > 0x20 && b < 0x7f) out += String.fromCharCode(b);
    else if (b === 0x20 && inQuotes) out += ' ';
    else out += `\\${String(b).padStart(3, '0')}`;
  }
  return out;
}

/** Bytes of a character-string in the RFC 1035 presentation form, without the quotes. */
export function escapedText(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) {
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
