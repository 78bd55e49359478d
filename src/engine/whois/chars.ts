// Character tests shared by the reply reader and the reply classifier.

/** The characters String.prototype.trim (and the regex class \s) treat as space. */
export function isSpace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 160) return false;
  return (
    c === 160 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** Whether u[from, from + word.length), ASCII capitals lower-cased, is `word` (lower case). */
export function lowerEquals(u: Uint16Array, from: number, word: string): boolean {
  for (let i = 0; i < word.length; i++) {
    const c = u[from + i];
    if ((c >= 65 && c <= 90 ? c + 32 : c) !== word.charCodeAt(i)) return false;
  }
  return true;
}

/** Whether the platform stores a number's low byte first (x64, arm64; not s390x). */
export const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * Writes text[0, count) into `buffer` from its start as UTF-16 code units in the platform's
 * byte order, so that a Uint16Array over the buffer reads them: natively, a block copy.
 * Buffer.write's 'utf16le' is little-endian everywhere; on a big-endian platform the written
 * bytes are swapped in place. (That branch runs only on such a platform: forced on another, it
 * would make the view read every unit byte-swapped, so no test here can take it.)
 */
export function writeCodeUnits(buffer: Buffer, text: string, count: number): void {
  buffer.write(text, 0, 2 * count, 'utf16le');
  if (!LITTLE_ENDIAN) buffer.subarray(0, 2 * count).swap16();
}

/**
 * text's UTF-16 code units in a new array (platform byte order), followed by `past` zeros: a
 * read a few units past the end sees 0, which, as charCodeAt's NaN there, is no character the
 * readers test for.
 */
export function codeUnits(text: string, past = 0): Uint16Array {
  const units = new Uint16Array(text.length + past);
  writeCodeUnits(Buffer.from(units.buffer), text, text.length);
  return units;
}
