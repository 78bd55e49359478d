// Whether an AVIF holds the coded image its header sizes, not only an `ispe` property: a
// structural check (no AV1 decoder here). The file is read as HEIF (ISO/IEC 23008-12) over
// the ISO base media file format (ISO/IEC 14496-12): `ftyp` names the avif brand; `meta`
// names a primary item (pitm) of type av01 (iinf), associated (ipma) with an image spatial
// extent (ispe) that gives the size; that item's extents (iloc) lie inside the file (or its
// idat box) and hold AV1 OBUs (AV1 specification, section 5) that fill the data exactly,
// with a sequence header whose maximum frame size holds the ispe size and a frame (or a
// frame header and a tile group) that are not empty. A primary item that is a grid of tiles
// or any other derived image is not sized.
import { fitsRgba, type Dimensions } from './decode-bounds';

interface Box {
  type: string;
  /** the payload after the box header */
  body: Buffer;
  /** where the payload starts in the file */
  at: number;
}

export function isAvif(bytes: Uint8Array): boolean {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length < 16 || buf.toString('latin1', 4, 8) !== 'ftyp') return false;
  const size = Math.min(buf.readUInt32BE(0), buf.length);
  // major brand, minor version, then compatible brands
  const brands = [buf.toString('latin1', 8, 12)];
  for (let at = 16; at + 4 <= size; at += 4) brands.push(buf.toString('latin1', at, at + 4));
  return brands.includes('avif') || brands.includes('avis');
}

/** The primary image's size when its coded data is there and well formed; else undefined. */
export function avifSize(bytes: Uint8Array): Dimensions | undefined {
  const file = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (!isAvif(file)) return undefined;
  const top = boxes(file, 0, file.length);
  const meta = top?.find((b) => b.type === 'meta');
  if (!meta || meta.body.length < 4) return undefined;
  const inner = boxes(file, meta.at + 4, meta.at + meta.body.length);
  if (!inner) return undefined;
  const find = (type: string) => inner.find((b) => b.type === type);
  const pitm = find('pitm');
  const iinf = find('iinf');
  const iloc = find('iloc');
  const iprp = find('iprp');
  if (!pitm || !iinf || !iloc || !iprp) return undefined;
  const pitmFields = new Reader(pitm.body);
  const primary = pitmFields.u32() >>> 24 === 0 ? pitmFields.u16() : pitmFields.u32();
  if (pitmFields.overrun || itemType(file, iinf, primary) !== 'av01') return undefined;
  const size = spatialExtent(file, iprp, primary);
  if (!size || !fitsRgba(size.width, size.height)) return undefined;
  const data = itemData(file, iloc, find('idat'), primary);
  const frame = data && codedFrameLimit(data);
  // The coded frames are at most the sequence header's maximum size (AV1 section 6.4.1);
  // an ispe larger than that names pixels no frame holds.
  return frame && size.width <= frame.width && size.height <= frame.height ? size : undefined;
}

/** The boxes between `start` and `end` of the file, or undefined if one overruns. */
function boxes(file: Buffer, start: number, end: number): Box[] | undefined {
  const out: Box[] = [];
  let at = start;
  while (at < end) {
    if (at + 8 > end) return undefined;
    let size = file.readUInt32BE(at);
    const type = file.toString('latin1', at + 4, at + 8);
    let header = 8;
    if (size === 1) {
      if (at + 16 > end) return undefined;
      size = Number(file.readBigUInt64BE(at + 8));
      header = 16;
    } else if (size === 0) size = end - at;
    if (size < header || at + size > end) return undefined;
    out.push({ type, body: file.subarray(at + header, at + size), at: at + header });
    at += size;
  }
  return out;
}

/** The item type `iinf` gives the item (from its infe box, version 2 or 3). */
function itemType(file: Buffer, iinf: Box, item: number): string | undefined {
  const countBytes = iinf.body[0] === 0 ? 2 : 4;
  const entries = boxes(file, iinf.at + 4 + countBytes, iinf.at + iinf.body.length);
  for (const infe of entries ?? []) {
    const version = infe.body[0];
    if (infe.type !== 'infe' || version < 2) continue;
    const idBytes = version === 2 ? 2 : 4;
    if (infe.body.length < 4 + idBytes + 2 + 4) continue;
    const id = idBytes === 2 ? infe.body.readUInt16BE(4) : infe.body.readUInt32BE(4);
    if (id === item) return infe.body.toString('latin1', 4 + idBytes + 2, 4 + idBytes + 6);
  }
  return undefined;
}

/** The `ispe` property ipma associates with the item. */
function spatialExtent(file: Buffer, iprp: Box, item: number): Dimensions | undefined {
  const children = boxes(file, iprp.at, iprp.at + iprp.body.length);
  const ipco = children?.find((b) => b.type === 'ipco');
  const properties = ipco && boxes(file, ipco.at, ipco.at + ipco.body.length);
  if (!properties) return undefined;
  for (const ipma of children?.filter((b) => b.type === 'ipma') ?? []) {
    const r = new Reader(ipma.body);
    const version = r.u8();
    const flags = r.uint(3);
    const count = r.u32();
    for (let i = 0; i < count && !r.overrun; i += 1) {
      const id = version < 1 ? r.u16() : r.u32();
      const associations = r.u8();
      for (let j = 0; j < associations && !r.overrun; j += 1) {
        const index = flags & 1 ? r.u16() & 0x7fff : r.u8() & 0x7f;
        const property = properties[index - 1];
        if (id === item && property?.type === 'ispe' && property.body.length >= 12) {
          return { width: property.body.readUInt32BE(4), height: property.body.readUInt32BE(8) };
        }
      }
    }
  }
  return undefined;
}

/** The item's bytes, its extents joined, when every extent lies inside the file or idat. */
function itemData(
  file: Buffer,
  iloc: Box,
  idat: Box | undefined,
  item: number,
): Buffer | undefined {
  const r = new Reader(iloc.body);
  const version = r.u8();
  r.uint(3);
  const sizes = r.u16();
  const offsetSize = sizes >> 12;
  const lengthSize = (sizes >> 8) & 15;
  const baseSize = (sizes >> 4) & 15;
  const indexSize = version === 1 || version === 2 ? sizes & 15 : 0;
  const count = version < 2 ? r.u16() : r.u32();
  for (let i = 0; i < count && !r.overrun; i += 1) {
    const id = version < 2 ? r.u16() : r.u32();
    const method = version === 1 || version === 2 ? r.u16() & 15 : 0;
    r.u16(); // data_reference_index
    const base = r.uint(baseSize);
    const extents = r.u16();
    const parts: Buffer[] = [];
    for (let e = 0; e < extents && !r.overrun; e += 1) {
      r.uint(indexSize);
      const offset = base + r.uint(offsetSize);
      const length = r.uint(lengthSize);
      // Construction method 0 addresses the file, 1 the meta box's idat (8.11.3.3).
      const source = method === 0 ? file : method === 1 ? idat?.body : undefined;
      if (!source || offset > source.length) return undefined;
      const end = length === 0 ? source.length : offset + length;
      if (end > source.length) return undefined;
      parts.push(source.subarray(offset, end));
    }
    if (id === item) return r.overrun || parts.length === 0 ? undefined : Buffer.concat(parts);
  }
  return undefined;
}

/**
 * The sequence header's maximum frame size when AV1 OBUs fill `data` exactly (section 5.3: a
 * header byte, an optional extension byte, a LEB128 size when flagged, else the rest), with
 * a sequence header and a non-empty frame, or a frame header and a non-empty tile group.
 */
function codedFrameLimit(data: Buffer): Dimensions | undefined {
  const seen = new Set<number>();
  let limit: Dimensions | undefined;
  let at = 0;
  while (at < data.length) {
    const header = data[at];
    if (header & 0x80) return undefined; // obu_forbidden_bit
    const type = (header >> 3) & 15;
    at += header & 0x04 ? 2 : 1;
    let size = data.length - at;
    if (header & 0x02) {
      size = 0;
      for (let i = 0; ; i += 1) {
        if (i === 8 || at >= data.length) return undefined;
        const byte = data[at++];
        size += (byte & 0x7f) * 2 ** (7 * i);
        if (!(byte & 0x80)) break;
      }
    }
    if (at + size > data.length) return undefined;
    if (type === OBU_SEQUENCE_HEADER) limit ??= maxFrameSize(data.subarray(at, at + size));
    if (size > 0) seen.add(type);
    at += size;
  }
  const framed = seen.has(OBU_FRAME) || (seen.has(OBU_FRAME_HEADER) && seen.has(OBU_TILE_GROUP));
  return framed ? limit : undefined;
}

const OBU_SEQUENCE_HEADER = 1;
const OBU_FRAME_HEADER = 3;
const OBU_TILE_GROUP = 4;
const OBU_FRAME = 6;

/** max_frame_width_minus_1 + 1 and its height, read through sequence_header_obu (5.5.1). */
function maxFrameSize(obu: Buffer): Dimensions | undefined {
  const bits = new BitReader(obu);
  bits.read(3); // seq_profile
  bits.read(1); // still_picture
  if (bits.read(1)) {
    bits.read(5); // reduced_still_picture_header: seq_level_idx[0] only
  } else {
    let decoderModel = false;
    let bufferDelayBits = 0;
    if (bits.read(1)) {
      // timing_info (5.5.3)
      bits.read(32);
      bits.read(32);
      if (bits.read(1)) bits.uvlc();
      decoderModel = bits.read(1) === 1;
      if (decoderModel) {
        // decoder_model_info (5.5.4)
        bufferDelayBits = bits.read(5) + 1;
        bits.read(32);
        bits.read(5);
        bits.read(5);
      }
    }
    const initialDisplayDelay = bits.read(1) === 1;
    const operatingPoints = bits.read(5) + 1;
    for (let i = 0; i < operatingPoints; i += 1) {
      bits.read(12); // operating_point_idc
      if (bits.read(5) > 7) bits.read(1); // seq_level_idx, seq_tier
      if (decoderModel && bits.read(1)) {
        // operating_parameters_info (5.5.5)
        bits.read(bufferDelayBits);
        bits.read(bufferDelayBits);
        bits.read(1);
      }
      if (initialDisplayDelay && bits.read(1)) bits.read(4);
    }
  }
  const widthBits = bits.read(4) + 1;
  const heightBits = bits.read(4) + 1;
  const width = bits.read(widthBits) + 1;
  const height = bits.read(heightBits) + 1;
  return bits.overrun ? undefined : { width, height };
}

/** Bits most significant first, as AV1's f(n) reads them; past the end sets `overrun`. */
class BitReader {
  private bit = 0;
  overrun = false;

  constructor(private readonly buf: Buffer) {}

  read(count: number): number {
    let v = 0;
    for (let i = 0; i < count; i += 1) {
      const byte = this.bit >> 3;
      if (byte >= this.buf.length) {
        this.overrun = true;
        return 0;
      }
      v = v * 2 + ((this.buf[byte] >> (7 - (this.bit & 7))) & 1);
      this.bit += 1;
    }
    return v;
  }

  /** uvlc() (4.10.3): leading zeros, then that many bits. */
  uvlc(): void {
    let zeros = 0;
    while (!this.overrun && this.read(1) === 0) zeros += 1;
    if (zeros < 32) this.read(zeros);
  }
}

/** Big-endian fields read in order; reads past the end give 0 and set `overrun`. */
class Reader {
  private at = 0;
  overrun = false;

  constructor(private readonly buf: Buffer) {}

  uint(bytes: number): number {
    if (this.at + bytes > this.buf.length) {
      this.overrun = true;
      return 0;
    }
    let v = 0;
    for (let i = 0; i < bytes; i += 1) v = v * 256 + this.buf[this.at + i];
    this.at += bytes;
    return v;
  }

  u8(): number {
    return this.uint(1);
  }

  u16(): number {
    return this.uint(2);
  }

  u32(): number {
    return this.uint(4);
  }
}
