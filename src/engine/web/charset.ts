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
