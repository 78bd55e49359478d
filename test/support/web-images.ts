// Minimal image files of a chosen size in each format the icon prober measures. The PNGs decode
// (blank pixels), since a PNG's size counts only when it does; for the other formats only the
// headers a decoder reads for the dimensions are real.
import { crc32, deflateSync } from 'node:zlib';

/** One PNG chunk: length, type, data and the right CRC. */
export function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

export function png(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.writeUInt8(8, 8);
  ihdr.writeUInt8(6, 9);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    // Each row: filter byte 0 and width RGBA pixels, all transparent.
    pngChunk('IDAT', deflateSync(Buffer.alloc(height * (1 + width * 4)))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** An ICO holding one PNG per size (sizes up to 256). */
export function ico(sizes: number[]): Buffer {
  const images = sizes.map((s) => png(s, s));
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(sizes.length, 4);
  let offset = 6 + 16 * sizes.length;
  const entries = sizes.map((s, i) => {
    const entry = Buffer.alloc(16);
    entry.writeUInt8(s >= 256 ? 0 : s, 0);
    entry.writeUInt8(s >= 256 ? 0 : s, 1);
    entry.writeUInt16LE(1, 4);
    entry.writeUInt16LE(32, 6);
    entry.writeUInt32LE(images[i].length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += images[i].length;
    return entry;
  });
  return Buffer.concat([header, ...entries, ...images]);
}

export function gif(width: number, height: number): Buffer {
  const b = Buffer.alloc(13);
  b.write('GIF89a', 0, 'ascii');
  b.writeUInt16LE(width, 6);
  b.writeUInt16LE(height, 8);
  return Buffer.concat([b, Buffer.from([0x3b])]);
}

export function jpeg(width: number, height: number): Buffer {
  const app0 = Buffer.from([
    0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01,
    0x00, 0x00,
  ]);
  const sof = Buffer.from([
    0xff, 0xc0, 0x00, 0x11, 0x08, 0, 0, 0, 0, 0x03, 1, 0x11, 0, 2, 0x11, 1, 3, 0x11, 1,
  ]);
  sof.writeUInt16BE(height, 5);
  sof.writeUInt16BE(width, 7);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, Buffer.from([0xff, 0xd9])]);
}

/** A lossless WebP (VP8L) header. */
export function webp(width: number, height: number): Buffer {
  const vp8l = Buffer.alloc(5);
  vp8l.writeUInt8(0x2f, 0);
  const bits = (width - 1) | ((height - 1) << 14);
  vp8l.writeUInt32LE(bits >>> 0, 1);
  const data = Buffer.concat([
    Buffer.from('VP8L', 'ascii'),
    uint32le(vp8l.length),
    vp8l,
    Buffer.alloc(1),
  ]);
  return Buffer.concat([
    Buffer.from('RIFF', 'ascii'),
    uint32le(4 + data.length),
    Buffer.from('WEBP', 'ascii'),
    data,
  ]);
}

function uint32le(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
}

export function svg(attributes: string): Buffer {
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" ${attributes}><rect width="1" height="1"/></svg>`,
  );
}
