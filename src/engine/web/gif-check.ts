// Whether a GIF decodes, not only whether its logical screen names a size (GIF89a
// specification): the header and logical screen descriptor are whole, the blocks up to the
// first image are whole, and that image's LZW data decodes to at least the pixels its image
// descriptor declares (section 22 and appendix F). Only the first image is decoded: it is the
// one an icon or a preview shows; the frames after it are not read.
import { fitsRgba, type Dimensions } from './decode-bounds';

const EXTENSION = 0x21;
const IMAGE = 0x2c;
/** LZW codes are at most 12 bits wide (appendix F). */
const MAX_CODE_BITS = 12;

export function isGif(bytes: Uint8Array): boolean {
  const magic = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(6, bytes.length));
  return magic.toString('latin1') === 'GIF87a' || magic.toString('latin1') === 'GIF89a';
}

/** The logical screen's size when the GIF's first image decodes whole; else undefined. */
export function gifSize(bytes: Uint8Array): Dimensions | undefined {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (!isGif(buf) || buf.length < 13) return undefined;
  const width = buf.readUInt16LE(6);
  const height = buf.readUInt16LE(8);
  if (!fitsRgba(width, height)) return undefined;
  let at = 13 + colourTableBytes(buf[10]);
  while (at < buf.length) {
    const block = buf[at];
    if (block === EXTENSION) {
      // Introducer, label, then data sub-blocks up to the empty one (section 23 onwards).
      const end = subBlocksEnd(buf, at + 2);
      if (end === undefined) return undefined;
      at = end;
    } else if (block === IMAGE) {
      return firstImageDecodes(buf, at) ? { width, height } : undefined;
    } else {
      // The trailer (or a byte that starts no block) before any image: nothing to show.
      return undefined;
    }
  }
  return undefined;
}

/** Bytes of a global or local colour table whose descriptor has these packed fields. */
function colourTableBytes(packed: number): number {
  return packed & 0x80 ? 3 * (1 << ((packed & 0x07) + 1)) : 0;
}

/** Offset just past the empty sub-block that ends the sub-blocks starting at `at`. */
function subBlocksEnd(buf: Buffer, at: number): number | undefined {
  while (at < buf.length) {
    const size = buf[at];
    if (size === 0) return at + 1;
    at += 1 + size;
  }
  return undefined;
}

/** Whether the image whose descriptor starts at `at` holds LZW data for all its pixels. */
function firstImageDecodes(buf: Buffer, at: number): boolean {
  // Image descriptor (section 20): separator, left, top, width, height, packed fields.
  if (at + 10 > buf.length) return false;
  const frameWidth = buf.readUInt16LE(at + 5);
  const frameHeight = buf.readUInt16LE(at + 7);
  if (!fitsRgba(frameWidth, frameHeight)) return false;
  const pixels = frameWidth * frameHeight;
  at += 10 + colourTableBytes(buf[at + 9]);
  if (at >= buf.length) return false;
  const minCodeSize = buf[at];
  // Table based image data (section 22): 2 to 8 bits for the colour indices; decoders also
  // take 1 (a two-colour image) and nothing wider than leaves room for a 12-bit code.
  if (minCodeSize < 1 || minCodeSize >= MAX_CODE_BITS) return false;
  const chunks: Buffer[] = [];
  at += 1;
  while (at < buf.length && buf[at] !== 0) {
    const size = buf[at];
    if (at + 1 + size > buf.length) break; // cut off: decode what arrived, it must be enough
    chunks.push(buf.subarray(at + 1, at + 1 + size));
    at += 1 + size;
  }
  return lzwPixelCount(Buffer.concat(chunks), minCodeSize, pixels) >= pixels;
}

/**
 * How many pixels the variable-length LZW code stream decodes to (appendix F), counted
 * without building them: each table entry's string length is its prefix's plus one. Stops
 * at `enough`, at the end-of-information code, at the end of the data, or at the first code
 * that names no entry (then the count so far is returned, short of `enough`).
 */
function lzwPixelCount(data: Buffer, minCodeSize: number, enough: number): number {
  const clear = 1 << minCodeSize;
  const end = clear + 1;
  const lengths = new Uint16Array(1 << MAX_CODE_BITS);
  lengths.fill(1, 0, clear);
  let codeBits = minCodeSize + 1;
  let next = end + 1;
  let previous = -1;
  let count = 0;
  let bitBuffer = 0;
  let bitCount = 0;
  let at = 0;
  while (count < enough) {
    while (bitCount < codeBits && at < data.length) {
      bitBuffer |= data[at++] << bitCount;
      bitCount += 8;
    }
    if (bitCount < codeBits) return count;
    const code = bitBuffer & ((1 << codeBits) - 1);
    bitBuffer >>>= codeBits;
    bitCount -= codeBits;
    if (code === clear) {
      codeBits = minCodeSize + 1;
      next = end + 1;
      previous = -1;
      continue;
    }
    if (code === end) return count;
    let length: number;
    if (code < clear || (code > end && code < next)) length = lengths[code];
    else if (code === next && previous >= 0) length = lengths[previous] + 1;
    else return count;
    if (previous >= 0 && next < 1 << MAX_CODE_BITS) {
      lengths[next] = lengths[previous] + 1;
      next += 1;
      if (next === 1 << codeBits && codeBits < MAX_CODE_BITS) codeBits += 1;
    }
    count += length;
    previous = code;
  }
  return count;
}
