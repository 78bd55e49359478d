// Whether a BMP holds the pixels its header names, not only the size: the DIB header is one
// Windows or OS/2 defines, and the pixel array is present at the offset given, with the bytes
// the size implies (rows padded to 4 bytes) or, run-length encoded, with runs that reach the
// end-of-bitmap code inside the file. The same DIB check measures the BMP images inside an
// ICO (ico-check.ts), which have no file header and a doubled height (colour and mask).
import { fitsRgba, type Dimensions } from './decode-bounds';

const FILE_HEADER = 14;
/** Compression methods read here (the others embed a JPEG or PNG, which browsers refuse). */
const BI_RGB = 0;
const BI_RLE8 = 1;
const BI_RLE4 = 2;
const BI_BITFIELDS = 3;
const BI_ALPHABITFIELDS = 6;

export function isBmp(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x42 && bytes[1] === 0x4d;
}

interface DibHeader extends Dimensions {
  headerSize: number;
  bitsPerPixel: number;
  compression: number;
  /** palette entries, for 8 bits per pixel and fewer */
  colours: number;
}

/** The size of a BMP file whose pixel array is all there; else undefined. */
export function bmpSize(bytes: Uint8Array): Dimensions | undefined {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (!isBmp(buf) || buf.length < FILE_HEADER + 12) return undefined;
  const pixelsAt = buf.readUInt32LE(10);
  const dib = dibHeader(buf.subarray(FILE_HEADER), false);
  if (!dib || pixelsAt < FILE_HEADER + dib.headerSize || pixelsAt > buf.length) return undefined;
  const size = { width: dib.width, height: dib.height };
  return pixelsPresent(dib, buf.subarray(pixelsAt)) ? size : undefined;
}

/**
 * The size of the BMP image inside an ICO entry (a DIB whose height counts the colour rows
 * and the mask rows) when its palette and colour pixels are there. The 1-bit AND mask after
 * them is not required: for 32-bit images the alpha channel supersedes it, and decoders treat
 * a missing mask as opaque.
 */
export function icoDibSize(entry: Buffer): Dimensions | undefined {
  const dib = dibHeader(entry, true);
  if (!dib || (dib.compression !== BI_RGB && dib.compression !== BI_BITFIELDS)) return undefined;
  const masks = dib.compression === BI_BITFIELDS && dib.headerSize === 40 ? 12 : 0;
  const pixelsAt = dib.headerSize + masks + 4 * dib.colours;
  if (pixelsAt > entry.length) return undefined;
  const size = { width: dib.width, height: dib.height };
  return pixelsPresent(dib, entry.subarray(pixelsAt)) ? size : undefined;
}

/**
 * The DIB header's fields: BITMAPCOREHEADER (12 bytes, 16-bit sizes), or BITMAPINFOHEADER and
 * its extensions (40 to 124 bytes, OS/2's 16 and 64 among them, 32-bit signed sizes, a
 * negative height meaning top-down rows). In an ICO the height is twice the image's.
 */
function dibHeader(buf: Buffer, inIco: boolean): DibHeader | undefined {
  if (buf.length < 12) return undefined;
  const headerSize = buf.readUInt32LE(0);
  let width: number;
  let height: number;
  let planes: number;
  let bitsPerPixel: number;
  let compression = BI_RGB;
  let colours = 0;
  if (headerSize === 12) {
    width = buf.readUInt16LE(4);
    height = buf.readUInt16LE(6);
    planes = buf.readUInt16LE(8);
    bitsPerPixel = buf.readUInt16LE(10);
  } else if (headerSize >= 16 && headerSize <= 124 && headerSize <= buf.length) {
    width = buf.readInt32LE(4);
    height = Math.abs(buf.readInt32LE(8));
    planes = buf.readUInt16LE(12);
    bitsPerPixel = buf.readUInt16LE(14);
    if (headerSize >= 20) compression = buf.readUInt32LE(16);
    if (headerSize >= 36) colours = buf.readUInt32LE(32);
  } else return undefined;
  if (inIco) {
    if (height % 2 !== 0) return undefined;
    height /= 2;
  }
  if (planes !== 1 || ![1, 4, 8, 16, 24, 32].includes(bitsPerPixel)) return undefined;
  if (!fitsRgba(width, height)) return undefined;
  if (bitsPerPixel <= 8) {
    const most = 1 << bitsPerPixel;
    if (colours > most) return undefined;
    if (colours === 0) colours = most;
  } else colours = 0;
  const fits =
    compression === BI_RGB ||
    (compression === BI_RLE8 && bitsPerPixel === 8) ||
    (compression === BI_RLE4 && bitsPerPixel === 4) ||
    ((compression === BI_BITFIELDS || compression === BI_ALPHABITFIELDS) &&
      (bitsPerPixel === 16 || bitsPerPixel === 32));
  if (!fits) return undefined;
  return { headerSize, width, height, bitsPerPixel, compression, colours };
}

/** Whether `pixels` holds the whole pixel array the header describes. */
function pixelsPresent(dib: DibHeader, pixels: Buffer): boolean {
  if (dib.compression === BI_RLE8 || dib.compression === BI_RLE4) return runsEnd(dib, pixels);
  const stride = Math.ceil((dib.width * dib.bitsPerPixel) / 32) * 4;
  return stride * dib.height <= pixels.length;
}

/**
 * Whether run-length encoded pixels (RLE8 or RLE4) reach their end-of-bitmap code inside the
 * data, with every run and delta inside the image. Pairs are (count, value) runs, or 0 then an
 * escape: 0 end of line, 1 end of bitmap, 2 a (dx, dy) delta, n >= 3 n literal pixels padded
 * to a 16-bit boundary.
 */
function runsEnd(dib: DibHeader, data: Buffer): boolean {
  const perByte = dib.compression === BI_RLE8 ? 1 : 2;
  let x = 0;
  let y = 0;
  let at = 0;
  while (at + 2 <= data.length) {
    const count = data[at];
    const value = data[at + 1];
    at += 2;
    if (count > 0) {
      x += count;
    } else if (value === 0) {
      x = 0;
      y += 1;
    } else if (value === 1) {
      return true;
    } else if (value === 2) {
      if (at + 2 > data.length) return false;
      x += data[at];
      y += data[at + 1];
      at += 2;
    } else {
      const bytes = Math.ceil(value / perByte);
      at += bytes + (bytes % 2);
      if (at > data.length) return false;
      x += value;
    }
    if (x > dib.width || y > dib.height) return false;
  }
  return false;
}
