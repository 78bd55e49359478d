// Minimal image files of a chosen size in each format the icon prober measures, each one that
// decodes, since an image's size counts only when it does: PNGs of blank pixels, GIFs written
// by omggif and JPEGs by jpeg-js (independent encoders), lossless WebPs of one colour and BMPs
// of blank rows, built here from their specifications.
import { encode as encodeJpeg } from 'jpeg-js';
import { GifWriter } from 'omggif';
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

/** A GIF of one frame (a pattern over a four-colour palette), written by omggif. */
export function gif(width: number, height: number): Buffer {
  const out = Buffer.alloc(1024 + width * height * 2);
  const writer = new GifWriter(out, width, height, {
    palette: [0x000000, 0xff0000, 0x00ff00, 0x0000ff],
  });
  const pixels = Array.from({ length: width * height }, (_, i) => (i + (i >> 3)) % 4);
  writer.addFrame(0, 0, width, height, pixels);
  return Buffer.from(out.subarray(0, writer.end()));
}

/** A baseline JPEG of a colour gradient, written by jpeg-js. */
export function jpeg(width: number, height: number, quality = 80): Buffer {
  const data = Buffer.alloc(width * height * 4);
  for (let i = 0; i < width * height; i += 1) {
    data[i * 4] = ((i % width) * 255) / width;
    data[i * 4 + 1] = (Math.floor(i / width) * 255) / height;
    data[i * 4 + 2] = 128;
    data[i * 4 + 3] = 255;
  }
  return Buffer.from(encodeJpeg({ width, height, data }, quality).data);
}

/**
 * A lossless WebP (VP8L) of one colour: the header, then no transform, no colour cache, no
 * meta prefix codes and five simple prefix codes of one symbol each, so every pixel takes no
 * bits (VP8L specification, sections 3 to 6).
 */
export function webp(width: number, height: number, argb = 0xff3366cc): Buffer {
  const bits = new BitWriter();
  bits.write(0x2f, 8);
  bits.write(width - 1, 14);
  bits.write(height - 1, 14);
  bits.write(1, 1); // alpha_is_used
  bits.write(0, 3); // version
  bits.write(0, 1); // no transform
  bits.write(0, 1); // no colour cache
  bits.write(0, 1); // no meta prefix codes
  // green, red, blue, alpha: simple code, one symbol, 8-bit symbol
  for (const shift of [8, 16, 0, 24]) {
    bits.write(1, 1);
    bits.write(0, 1);
    bits.write(1, 1);
    bits.write((argb >>> shift) & 0xff, 8);
  }
  // distance: simple code, one symbol, 1-bit symbol 0
  bits.write(0b0001, 4);
  return riff([['VP8L', bits.bytes()]]);
}

/** A RIFF WebP file of these chunks (each padded to an even size). */
export function riff(chunks: Array<[string, Buffer]>): Buffer {
  const body = Buffer.concat(
    chunks.map(([type, data]) =>
      Buffer.concat([
        Buffer.from(type, 'latin1'),
        uint32le(data.length),
        data,
        Buffer.alloc(data.length % 2),
      ]),
    ),
  );
  return Buffer.concat([
    Buffer.from('RIFF', 'latin1'),
    uint32le(4 + body.length),
    Buffer.from('WEBP', 'latin1'),
    body,
  ]);
}

/** Bits packed least significant first, as VP8L reads them. */
class BitWriter {
  private readonly out: number[] = [];
  private count = 0;

  write(value: number, bits: number): void {
    for (let i = 0; i < bits; i += 1) {
      const byte = this.count >> 3;
      if (byte === this.out.length) this.out.push(0);
      this.out[byte] |= ((value >>> i) & 1) << (this.count & 7);
      this.count += 1;
    }
  }

  bytes(): Buffer {
    return Buffer.from(this.out);
  }
}

/** A 24-bit bottom-up BMP of blank rows (each padded to 4 bytes). */
export function bmp(width: number, height: number): Buffer {
  const stride = Math.ceil((width * 24) / 32) * 4;
  const header = Buffer.alloc(54);
  header.write('BM', 0, 'latin1');
  header.writeUInt32LE(54 + stride * height, 2);
  header.writeUInt32LE(54, 10);
  header.writeUInt32LE(40, 14);
  header.writeInt32LE(width, 18);
  header.writeInt32LE(height, 22);
  header.writeUInt16LE(1, 26);
  header.writeUInt16LE(24, 28);
  return Buffer.concat([header, Buffer.alloc(stride * height)]);
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
