// Which charset a page is written in, in the order the contract gives: a byte order mark,
// then the Content-Type header, then <meta charset> / http-equiv in the first bytes. A label
// the platform does not know falls back instead of throwing.

export type CharsetSource = 'bom' | 'header' | 'meta' | 'default';

export interface Charset {
  encoding: string;
  source: CharsetSource;
  /** bytes of BOM to skip */
  skip: number;
}

/** How many leading bytes the meta prescan looks at (the HTML spec says 1024; pages are sloppy). */
export const PRESCAN_BYTES = 4096;

export function charsetFromContentType(contentType: string | undefined): string | undefined {
  if (!contentType) return undefined;
  const match = /charset\s*=\s*["']?([^"';,\s]+)/i.exec(contentType);
  return match?.[1];
}

/** The canonical decoder name for a label, or undefined when the platform does not know it. */
export function knownEncoding(label: string | undefined): string | undefined {
  if (!label) return undefined;
  try {
    const encoding = new TextDecoder(label.trim()).encoding;
    // A page cannot really declare UTF-16 in ASCII-compatible bytes; the spec reads it as UTF-8.
    return encoding.startsWith('utf-16') ? 'utf-8' : encoding;
  } catch {
    return undefined;
  }
}

function bom(bytes: Uint8Array): Charset | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return { encoding: 'utf-8', source: 'bom', skip: 3 };
  }
  if (bytes[0] === 0xfe && bytes[1] === 0xff)
    return { encoding: 'utf-16be', source: 'bom', skip: 2 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe)
    return { encoding: 'utf-16le', source: 'bom', skip: 2 };
  return undefined;
}

const META_CHARSET = /<meta\b[^>]*?\bcharset\s*=\s*["']?\s*([^"'\s/>;]+)/gi;

/** The charset declared by a meta tag in the first bytes, if any (either meta form). */
export function prescanMeta(bytes: Uint8Array): string | undefined {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, PRESCAN_BYTES))
    .toString('latin1')
    .replace(/<!--[\s\S]*?-->/g, '');
  META_CHARSET.lastIndex = 0;
  for (let m = META_CHARSET.exec(text); m; m = META_CHARSET.exec(text)) {
    const known = knownEncoding(m[1]);
    if (known) return known;
  }
  return undefined;
}

function isValidUtf8(bytes: Uint8Array, complete: boolean): boolean {
  try {
    // A multi-byte sequence cut at the end of a partial sample is not evidence against UTF-8.
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: !complete });
    return true;
  } catch {
    return false;
  }
}

/**
 * Decides the charset from the first bytes of the body (at least PRESCAN_BYTES when the body
 * is that long) and the Content-Type header. `complete` says `first` is the whole body.
 */
export function detectCharset(
  first: Uint8Array,
  contentType: string | undefined,
  complete = true,
): Charset {
  const fromBom = bom(first);
  if (fromBom) return fromBom;
  const fromHeader = knownEncoding(charsetFromContentType(contentType));
  if (fromHeader) return { encoding: fromHeader, source: 'header', skip: 0 };
  const fromMeta = prescanMeta(first);
  if (fromMeta) return { encoding: fromMeta, source: 'meta', skip: 0 };
  // Undeclared: modern pages are UTF-8; older ones are windows-1252 (the spec's default).
  return {
    encoding: isValidUtf8(first, complete) ? 'utf-8' : 'windows-1252',
    source: 'default',
    skip: 0,
  };
}

/** Decodes a whole buffer in its detected charset. */
export function decodeText(bytes: Uint8Array, contentType: string | undefined): string {
  const charset = detectCharset(
    bytes.subarray(0, PRESCAN_BYTES),
    contentType,
    bytes.length <= PRESCAN_BYTES,
  );
  return new TextDecoder(charset.encoding).decode(bytes.subarray(charset.skip));
}

/**
 * Where to cut `bytes` (UTF-8) at or before `end` so that no character is split: the cut
 * holds back a trailing sequence that is the valid beginning of a character, exactly what a
 * streaming TextDecoder keeps for its next call (anything else is already a U+FFFD for it).
 * With it a page in memory is decoded by Buffer's native UTF-8 path, slice by slice, with the
 * same text in each slice as TextDecoder's stream mode gives.
 */
export function utf8Cut(bytes: Uint8Array, end: number): number {
  for (let lead = end - 1; lead >= 0 && lead >= end - 3; lead -= 1) {
    const b = bytes[lead];
    if (b < 0x80) return end;
    if (b < 0xc0) continue; // a continuation byte: the lead is further back
    const needed =
      b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (needed <= end - lead) return end; // complete, or not a lead byte at all
    // The second byte has a narrower range after E0, ED, F0 and F4 (no overlongs, surrogates
    // or code points past U+10FFFF); the rest are plain continuation bytes, checked above.
    if (lead + 1 < end) {
      const second = bytes[lead + 1];
      const low = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80;
      const high = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf;
      if (second < low || second > high) return end;
    }
    return lead;
  }
  return end;
}
