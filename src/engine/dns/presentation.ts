// Names and character-strings as text (RFC 1035 section 5.1). A label byte that is not a
// letter, digit, hyphen or underscore is escaped: printable punctuation as `\c` (so a dot
// inside a label reads `\.`), anything else as `\DDD`. `*` (wildcards) and `/` (RFC 2317
// classless delegation) stay as they are, as the common tools print them.
import { LookupError, printable } from '../../contract/errors';
import type { Labels } from './wire';

const BACKSLASH = 0x5c;
const QUOTE = 0x22;

function plainNameByte(byte: number): boolean {
  return (
    (byte >= 0x30 && byte <= 0x39) ||
    (byte >= 0x41 && byte <= 0x5a) ||
    (byte >= 0x61 && byte <= 0x7a) ||
    byte === 0x2d ||
    byte === 0x5f ||
    byte === 0x2a ||
    byte === 0x2f
  );
}

function decimal(byte: number): string {
  return `\\${byte.toString().padStart(3, '0')}`;
}

/** One label in presentation form. */
export function labelText(label: Uint8Array): string {
  let out = '';
  for (const byte of label) {
    if (plainNameByte(byte)) out += String.fromCharCode(byte);
    // '#' is printed numerically: a leading '#' reads as the RFC 3597 generic form elsewhere.
    else if (byte > 0x20 && byte < 0x7f && byte !== 0x23) out += `\\${String.fromCharCode(byte)}`;
    else out += decimal(byte);
  }
  return out;
}

/** A fully qualified name in presentation form, with its trailing dot; the root is ".". */
export function nameText(labels: Labels): string {
  if (labels.length === 0) return '.';
  return `${labels.map(labelText).join('.')}.`;
}

/**
 * A name given as text into labels. Escapes (`\.`, `\\`, `\DDD`) are read, so every name this
 * module prints comes back as the same bytes. Other characters are taken as UTF-8.
 */
export function textToLabels(text: string): Labels {
  const invalid = (why: string) =>
    new LookupError('invalid_host', `"${printable(text)}" is not a domain name (${why})`);
  if (text === '.' || text === '') return [];
  const labels: Labels = [];
  let current: number[] = [];
  const bytes = Buffer.from(text, 'utf8');
  let total = 1;
  const close = () => {
    if (current.length === 0) throw invalid('empty label');
    if (current.length > 63) throw invalid('label over 63 octets');
    total += current.length + 1;
    labels.push(Uint8Array.from(current));
    current = [];
  };
  let endsWithSeparator = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    endsWithSeparator = byte === 0x2e;
    if (byte === 0x2e) {
      close();
      continue;
    }
    if (byte !== BACKSLASH) {
      current.push(byte);
      continue;
    }
    const digits = /^\d{3}/.exec(bytes.toString('latin1', i + 1, i + 4));
    if (digits !== null) {
      const value = Number(digits[0]);
      if (value > 255) throw invalid('escape over 255');
      current.push(value);
      i += 3;
    } else if (i + 1 < bytes.length) {
      current.push(bytes[++i]);
    } else {
      throw invalid('lone backslash at the end');
    }
  }
  if (current.length > 0) close();
  else if (!endsWithSeparator) throw invalid('empty label');
  if (total > 255) throw invalid('over 255 octets');
  return labels;
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
