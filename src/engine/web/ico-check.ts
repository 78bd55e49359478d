// Sizes of the images an ICO or CUR holds, only of those that decode: the directory is whole,
// an entry's data lies inside the file past the directory, and the PNG or BMP (DIB) there
// passes its own check (png-check.ts, bmp-check.ts). The size is the embedded image's, not the
// directory's one-byte guess (where 0 means 256). An entry that fails is not counted; a file
// none of whose entries decodes has no size.
import { icoDibSize } from './bmp-check';
import type { Dimensions } from './decode-bounds';
import { isPng, pngSize } from './png-check';

const DIRECTORY = 6;
const ENTRY = 16;

/** 'ico' or 'cur' when the bytes start with an icon directory header, else undefined. */
export function icoKind(bytes: Uint8Array): 'ico' | 'cur' | undefined {
  if (bytes.length < DIRECTORY || bytes[0] !== 0 || bytes[1] !== 0 || bytes[3] !== 0) {
    return undefined;
  }
  if (bytes[4] === 0 && bytes[5] === 0) return undefined; // no images
  return bytes[2] === 1 ? 'ico' : bytes[2] === 2 ? 'cur' : undefined;
}

/** The sizes of the entries that decode, in directory order. */
export function icoSizes(bytes: Uint8Array): Dimensions[] {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (!icoKind(buf)) return [];
  const count = buf.readUInt16LE(4);
  const dataStart = DIRECTORY + ENTRY * count;
  if (dataStart > buf.length) return [];
  const sizes: Dimensions[] = [];
  for (let i = 0; i < count; i += 1) {
    const entry = DIRECTORY + ENTRY * i;
    const length = buf.readUInt32LE(entry + 8);
    const offset = buf.readUInt32LE(entry + 12);
    if (offset < dataStart || length === 0 || offset + length > buf.length) continue;
    const image = buf.subarray(offset, offset + length);
    const size = isPng(image) ? pngSize(image) : icoDibSize(image);
    if (size) sizes.push(size);
  }
  return sizes;
}

/** The largest entry that decodes; undefined when none does. */
export function icoSize(bytes: Uint8Array): Dimensions | undefined {
  let best: Dimensions | undefined;
  for (const size of icoSizes(bytes)) {
    if (!best || size.width * size.height > best.width * best.height) best = size;
  }
  return best;
}
