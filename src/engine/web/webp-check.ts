// Whether a WebP holds an image of the size it names (the WebP container specification, RFC
// 9649): the RIFF sizes agree with the file, every chunk up to the image is whole, and the
// image's bitstream header is valid with its data present. This is a structural check, not a
// decode:
// - VP8 (lossy, RFC 6386): the key frame header (section 9.1), the first partition whole,
//   its frame header read with the boolean decoder up to the partition count (section 9.3 to
//   9.5; section 7 for the decoder), and every DCT partition inside the chunk and not empty.
// - VP8L (lossless): the header (signature, 14-bit sizes, version 0) and data after it. A
//   lossless image can be a few bytes for any size (one colour), so no length is implied.
// - VP8X (extended): the canvas size, then the still image or the first animation frame
//   checked as above, its size agreeing with the canvas (or fitting in it, for a frame).
import { fitsRgba, type Dimensions } from './decode-bounds';

export function isWebp(bytes: Uint8Array): boolean {
  if (bytes.length < 12) return false;
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, 12);
  return b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP';
}

interface Chunk {
  type: string;
  data: Buffer;
}

/** The image's (or canvas's) size when the WebP's structure holds up; else undefined. */
export function webpSize(bytes: Uint8Array): Dimensions | undefined {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (!isWebp(buf)) return undefined;
  // The RIFF size counts from the form type on; bytes after it are not part of the image.
  const riffSize = buf.readUInt32LE(4);
  if (riffSize < 4 || riffSize % 2 !== 0 || 8 + riffSize > buf.length) return undefined;
  const chunks = readChunks(buf.subarray(12, 8 + riffSize));
  if (!chunks || chunks.length === 0) return undefined;
  const first = chunks[0];
  if (first.type === 'VP8 ' || first.type === 'VP8L') return bitstreamSize(first);
  if (first.type !== 'VP8X' || first.data.length < 10) return undefined;
  const flags = first.data[0];
  const canvas = {
    width: 1 + first.data.readUIntLE(4, 3),
    height: 1 + first.data.readUIntLE(7, 3),
  };
  if (!fitsRgba(canvas.width, canvas.height)) return undefined;
  const animated = (flags & 0x02) !== 0;
  if (animated) {
    const frame = chunks.find((c) => c.type === 'ANMF');
    return frame && frameFits(frame.data, canvas) ? canvas : undefined;
  }
  const image = chunks.find((c) => c.type === 'VP8 ' || c.type === 'VP8L');
  const size = image ? bitstreamSize(image) : undefined;
  return size && size.width === canvas.width && size.height === canvas.height ? canvas : undefined;
}

/** Chunks of a RIFF payload, each whole (a chunk of odd size is padded to even). */
function readChunks(body: Buffer): Chunk[] | undefined {
  const chunks: Chunk[] = [];
  let at = 0;
  while (at < body.length) {
    if (at + 8 > body.length) return undefined;
    const size = body.readUInt32LE(at + 4);
    if (at + 8 + size > body.length) return undefined;
    chunks.push({
      type: body.toString('latin1', at, at + 4),
      data: body.subarray(at + 8, at + 8 + size),
    });
    at += 8 + size + (size % 2);
  }
  return chunks;
}

/** An ANMF frame: its offset and size inside the canvas, then its image chunks. */
function frameFits(data: Buffer, canvas: Dimensions): boolean {
  if (data.length < 16) return false;
  const x = 2 * data.readUIntLE(0, 3);
  const y = 2 * data.readUIntLE(3, 3);
  const width = 1 + data.readUIntLE(6, 3);
  const height = 1 + data.readUIntLE(9, 3);
  if (x + width > canvas.width || y + height > canvas.height) return false;
  const inner = readChunks(data.subarray(16));
  const image = inner?.find((c) => c.type === 'VP8 ' || c.type === 'VP8L');
  const size = image ? bitstreamSize(image) : undefined;
  return size !== undefined && size.width === width && size.height === height;
}

function bitstreamSize(chunk: Chunk): Dimensions | undefined {
  return chunk.type === 'VP8L' ? losslessSize(chunk.data) : lossySize(chunk.data);
}

/** VP8L header: 0x2F, then 14 bits width - 1, 14 bits height - 1, alpha, 3 bits version 0. */
function losslessSize(data: Buffer): Dimensions | undefined {
  if (data.length < 6 || data[0] !== 0x2f) return undefined;
  const bits = data.readUInt32LE(1);
  const width = (bits & 0x3fff) + 1;
  const height = ((bits >>> 14) & 0x3fff) + 1;
  if (bits >>> 29 !== 0 || !fitsRgba(width, height)) return undefined;
  return { width, height };
}

/** A VP8 key frame whose partitions are all present (RFC 6386 sections 9.1 to 9.5). */
function lossySize(data: Buffer): Dimensions | undefined {
  if (data.length < 10) return undefined;
  const tag = data.readUIntLE(0, 3);
  const keyFrame = (tag & 1) === 0;
  const version = (tag >> 1) & 7;
  const shown = (tag >> 4) & 1;
  const firstPartition = tag >>> 5;
  if (!keyFrame || version > 3 || !shown) return undefined;
  if (data[3] !== 0x9d || data[4] !== 0x01 || data[5] !== 0x2a) return undefined;
  const width = data.readUInt16LE(6) & 0x3fff;
  const height = data.readUInt16LE(8) & 0x3fff;
  if (!fitsRgba(width, height)) return undefined;
  const partitionsAt = 10 + firstPartition;
  if (firstPartition === 0 || partitionsAt > data.length) return undefined;
  const count = dctPartitionCount(data.subarray(10, partitionsAt));
  if (count === undefined) return undefined;
  // The sizes of all but the last DCT partition, 3 bytes each (section 9.5); the last one
  // takes the rest of the chunk. None may be empty: each holds at least a macroblock row.
  let at = partitionsAt + 3 * (count - 1);
  if (at > data.length) return undefined;
  for (let i = 0; i < count - 1; i += 1) {
    const size = data.readUIntLE(partitionsAt + 3 * i, 3);
    if (size === 0) return undefined;
    at += size;
  }
  return at < data.length ? { width, height } : undefined;
}

/**
 * The number of DCT partitions, read from the key frame header in the first partition: the
 * fields before it (section 9.3 to 9.6, 19.2) are read to skip them, with the boolean
 * decoder of section 7. Undefined when the partition ends before the field.
 */
function dctPartitionCount(partition: Buffer): number | undefined {
  const bool = new BoolDecoder(partition);
  bool.literal(2); // colour space, clamping type
  if (bool.literal(1)) {
    // segmentation_enabled: update_mb_segmentation_map, update_segment_feature_data
    const updateMap = bool.literal(1);
    if (bool.literal(1)) {
      bool.literal(1); // segment_feature_mode
      for (let i = 0; i < 4; i += 1) bool.optionalSigned(7); // quantizer
      for (let i = 0; i < 4; i += 1) bool.optionalSigned(6); // loop filter level
    }
    if (updateMap) for (let i = 0; i < 3; i += 1) if (bool.literal(1)) bool.literal(8);
  }
  bool.literal(1 + 6 + 3); // filter_type, loop_filter_level, sharpness_level
  if (bool.literal(1) && bool.literal(1)) {
    // loop_filter_adj_enable, mode_ref_lf_delta_update: 4 ref frame and 4 mode deltas
    for (let i = 0; i < 8; i += 1) bool.optionalSigned(6);
  }
  const log2 = bool.literal(2);
  return bool.overrun ? undefined : 1 << log2;
}

/** The boolean entropy decoder of RFC 6386 section 7.3, for literal (p = 128) fields only. */
class BoolDecoder {
  private value: number;
  private range = 255;
  private bitCount = 0;
  private at: number;
  /** set when a read needed bytes past the end of the partition */
  overrun = false;

  constructor(private readonly data: Buffer) {
    this.value = ((data[0] ?? 0) << 8) | (data[1] ?? 0);
    this.at = 2;
    if (data.length < 2) this.overrun = true;
  }

  private bit(): number {
    const split = 1 + (((this.range - 1) * 128) >> 8);
    const bigSplit = split << 8;
    let result: number;
    if (this.value >= bigSplit) {
      result = 1;
      this.range -= split;
      this.value -= bigSplit;
    } else {
      result = 0;
      this.range = split;
    }
    while (this.range < 128) {
      this.value <<= 1;
      this.range <<= 1;
      if (++this.bitCount === 8) {
        this.bitCount = 0;
        if (this.at < this.data.length) this.value |= this.data[this.at];
        else this.overrun = true;
        this.at += 1;
      }
    }
    return result;
  }

  /** An unsigned n-bit field, most significant bit first (section 9.2's L(n)). */
  literal(bits: number): number {
    let v = 0;
    for (let i = 0; i < bits; i += 1) v = (v << 1) | this.bit();
    return v;
  }

  /** A flag, then if set an n-bit magnitude and a sign. */
  optionalSigned(bits: number): void {
    if (this.literal(1)) this.literal(bits + 1);
  }
}
