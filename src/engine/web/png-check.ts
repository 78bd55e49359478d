// Whether a PNG decodes, not only whether its header names a size: every chunk up to IEND is
// whole and its CRC right (PNG spec, section 5.3), IHDR is valid (section 11.2.2), and the
// IDAT stream inflates to exactly the bytes the image's rows need (sections 7.2 and 8.2, for
// non-interlaced images). A header that claims 2147483647 x 2147483647 pixels with no data
// behind it is not an image of that size; it is not an image.
import { crc32, inflateSync } from 'node:zlib';
import { MAX_RAW_BYTES, type Dimensions } from './decode-bounds';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Samples per pixel of each PNG colour type (section 11.2.2, table 11.1). */
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

export function isPng(bytes: Uint8Array): boolean {
  return bytes.length >= 8 && SIGNATURE.equals(bytes.subarray(0, 8));
}

/** True when the PNG's chunks are intact and its image data inflates to its declared size. */
export function pngDecodes(bytes: Uint8Array): boolean {
  return pngSize(bytes) !== undefined;
}

/** The PNG's size when its chunks are intact and its data inflates to that size; else undefined. */
export function pngSize(bytes: Uint8Array): Dimensions | undefined {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (!isPng(buf)) return undefined;
  let at = 8;
  let header: { width: number; height: number; depth: number; type: number; interlace: number };
  header = { width: 0, height: 0, depth: 0, type: -1, interlace: 0 };
  const data: Buffer[] = [];
  let ended = false;
  while (at + 12 <= buf.length && !ended) {
    const length = buf.readUInt32BE(at);
    if (length > 0x7fffffff || at + 12 + length > buf.length) return undefined;
    const type = buf.toString('latin1', at + 4, at + 8);
    const body = buf.subarray(at + 8, at + 8 + length);
    if (crc32(buf.subarray(at + 4, at + 8 + length)) !== buf.readUInt32BE(at + 8 + length)) {
      return undefined;
    }
    if (type === 'IHDR') {
      if (length !== 13) return undefined;
      header = {
        width: body.readUInt32BE(0),
        height: body.readUInt32BE(4),
        depth: body[8],
        type: body[9],
        interlace: body[12],
      };
    } else if (type === 'IDAT') data.push(body);
    else if (type === 'IEND') ended = true;
    at += 12 + length;
  }
  const channels = CHANNELS[header.type];
  if (!ended || channels === undefined || data.length === 0) return undefined;
  if (header.width === 0 || header.height === 0 || header.width > 0x7fffffff) return undefined;
  if (header.height > 0x7fffffff || ![1, 2, 4, 8, 16].includes(header.depth)) return undefined;
  // Each row: a filter byte, then the row's samples packed to whole bytes (section 7.2).
  const rowBytes = 1 + Math.ceil((header.width * channels * header.depth) / 8);
  const rawBytes = rowBytes * header.height;
  // Adam7 interlacing stores the passes' rows (section 8.2): no more than the plain layout
  // plus one filter byte per row of each of the seven passes.
  const most = header.interlace === 0 ? rawBytes : rawBytes + 7 * header.height;
  if (!(most <= MAX_RAW_BYTES)) return undefined;
  try {
    const raw = inflateSync(Buffer.concat(data), { maxOutputLength: most + 1 });
    const whole =
      header.interlace === 0 ? raw.length === rawBytes : raw.length > 0 && raw.length <= most;
    return whole ? { width: header.width, height: header.height } : undefined;
  } catch {
    return undefined;
  }
}
