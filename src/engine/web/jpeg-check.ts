// Whether a JPEG decodes, not only whether its frame header names a size (ITU-T T.81, annex
// B): the markers from SOI to EOI are whole, with one frame header (SOF) naming the size, the
// quantisation and Huffman tables its process needs (DQT, DHT), and at least one scan (SOS)
// whose entropy-coded data runs to the next marker; then the data is decoded (jpeg-js, within
// the pixel and memory bounds), so Huffman codes that name no symbol are refused too.
import { decode } from 'jpeg-js';
import { fitsRgba, MAX_RAW_BYTES, type Dimensions } from './decode-bounds';

const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;
const DQT = 0xdb;
const DHT = 0xc4;
/** Frame headers: every SOFn but DHT (C4), JPG (C8) and DAC (CC), which share the range. */
const SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);
/** Processes coded with Huffman tables (the others are arithmetic coded, table B.1). */
const HUFFMAN_SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7]);
/** Lossless processes, which have no quantisation tables. */
const LOSSLESS_SOF = new Set([0xc3, 0xc7, 0xcb, 0xcf]);
/** Markers without a length field (B.1.1.3): TEM and RST0 to RST7. */
const STANDALONE = (marker: number) => marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7);

export function isJpeg(bytes: Uint8Array): boolean {
  return bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === SOI && bytes[2] === 0xff;
}

interface Frame extends Dimensions {
  marker: number;
}

/** The frame's size when the JPEG is whole from SOI to EOI and its scans decode; else undefined. */
export function jpegSize(bytes: Uint8Array): Dimensions | undefined {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const frame = jpegStructure(buf);
  if (!frame) return undefined;
  if (!HUFFMAN_SOF.has(frame.marker) || LOSSLESS_SOF.has(frame.marker)) {
    // jpeg-js decodes the Huffman-coded DCT processes only; a browser may show the others,
    // but no size is reported for what is not decoded here.
    return undefined;
  }
  try {
    const image = decode(buf, {
      useTArray: true,
      formatAsRGBA: false,
      tolerantDecoding: false,
      maxResolutionInMP: MAX_RAW_BYTES / 4 / 1e6,
      maxMemoryUsageInMB: (2 * MAX_RAW_BYTES) / (1024 * 1024),
    });
    return image.width === frame.width && image.height === frame.height
      ? { width: frame.width, height: frame.height }
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The frame header when the marker segments are whole from SOI to EOI, the tables the frame's
 * process needs came before its first scan, and every scan has entropy-coded data.
 */
export function jpegStructure(buf: Buffer): Frame | undefined {
  if (!isJpeg(buf)) return undefined;
  let frame: Frame | undefined;
  let quantTables = false;
  let huffmanTables = false;
  let scans = 0;
  let at = 2;
  for (;;) {
    // A marker is 0xFF, any number of 0xFF fill bytes, then its code (B.1.1.2).
    if (at >= buf.length || buf[at] !== 0xff) return undefined;
    while (at < buf.length && buf[at] === 0xff) at += 1;
    if (at >= buf.length) return undefined;
    const marker = buf[at];
    at += 1;
    if (marker === EOI) break;
    if (marker === SOI || marker === 0x00 || STANDALONE(marker)) return undefined;
    if (at + 2 > buf.length) return undefined;
    const length = buf.readUInt16BE(at);
    if (length < 2 || at + length > buf.length) return undefined;
    const segment = buf.subarray(at + 2, at + length);
    at += length;
    if (SOF.has(marker)) {
      if (frame) return undefined; // one frame per image (B.2.1)
      frame = frameHeader(marker, segment);
      if (!frame) return undefined;
    } else if (marker === DQT) quantTables = true;
    else if (marker === DHT) huffmanTables = true;
    else if (marker === SOS) {
      if (!frame || !scanHeaderFits(segment)) return undefined;
      if (!LOSSLESS_SOF.has(frame.marker) && !quantTables) return undefined;
      if (HUFFMAN_SOF.has(frame.marker) && !huffmanTables) return undefined;
      const dataEnd = entropyCodedEnd(buf, at);
      if (dataEnd === undefined || dataEnd === at) return undefined;
      at = dataEnd;
      scans += 1;
    }
  }
  return frame && scans > 0 ? frame : undefined;
}

/** SOF: precision, lines, samples per line, then 1 to 4 components of 3 bytes (B.2.2). */
function frameHeader(marker: number, segment: Buffer): Frame | undefined {
  if (segment.length < 6) return undefined;
  const height = segment.readUInt16BE(1);
  const width = segment.readUInt16BE(3);
  const components = segment[5];
  if (components < 1 || components > 4 || segment.length !== 6 + 3 * components) return undefined;
  // A height of 0 is defined later by a DNL segment (B.2.5), which no browser decodes.
  if (!fitsRgba(width, height)) return undefined;
  return { marker, width, height };
}

/** SOS: 1 to 4 components of 2 bytes, then the spectral and approximation bytes (B.2.3). */
function scanHeaderFits(segment: Buffer): boolean {
  const components = segment[0] ?? 0;
  return components >= 1 && components <= 4 && segment.length === 1 + 2 * components + 3;
}

/**
 * Offset of the marker that ends the entropy-coded data from `at` (B.1.1.5): 0xFF is followed
 * by 0x00 (a stuffed byte) or a restart marker inside the data; anything else is a marker.
 */
function entropyCodedEnd(buf: Buffer, at: number): number | undefined {
  for (;;) {
    const ff = buf.indexOf(0xff, at);
    if (ff < 0 || ff + 1 >= buf.length) return undefined;
    const next = buf[ff + 1];
    if (next === 0x00 || (next >= 0xd0 && next <= 0xd7)) at = ff + 2;
    else if (next === 0xff) at = ff + 1;
    else return ff;
  }
}
