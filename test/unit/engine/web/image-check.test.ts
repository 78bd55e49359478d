// Image sizes only from images that decode (issue 29), for every raster format besides PNG
// (png-check.test.ts): GIF, JPEG, WebP, BMP and ICO/CUR. Each valid image is written by an
// independent encoder (omggif, jpeg-js, cwebp and cjpeg for the fixtures) or built from the
// format's specification, and its size is held against image-size's; each lying one claims a
// size its data does not back and gets none.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { imageSize } from 'image-size';
import { avifSize } from '../../../../src/engine/web/avif-check';
import { bmpSize } from '../../../../src/engine/web/bmp-check';
import { gifSize } from '../../../../src/engine/web/gif-check';
import { icoSize } from '../../../../src/engine/web/ico-check';
import { measureImage } from '../../../../src/engine/web/image';
import { jpegSize } from '../../../../src/engine/web/jpeg-check';
import { webpSize } from '../../../../src/engine/web/webp-check';
import { lyingImages } from '../../../support/hostile-upstreams';
import { bmp, gif, ico, jpeg, png, riff, webp } from '../../../support/web-images';

const FIXTURES = join(__dirname, '../../../fixtures/images');
const fixture = (name: string) => readFileSync(join(FIXTURES, name));

/** A copy of `bytes` with `patch` applied. */
function patched(bytes: Buffer, patch: (b: Buffer) => void): Buffer {
  const copy = Buffer.from(bytes);
  patch(copy);
  return copy;
}

/** The size image-size reads from the headers (for ICO, its largest image). */
function headerSize(bytes: Buffer): { width: number; height: number } {
  const result = imageSize(new Uint8Array(bytes));
  let { width, height } = result;
  for (const i of result.images ?? []) {
    if (i.width * i.height > width * height) ({ width, height } = i);
  }
  return { width, height };
}

function assertMeasured(bytes: Buffer, format: string, width: number, height: number): void {
  assert.deepEqual(measureImage(bytes), { width, height, format });
  assert.deepEqual(headerSize(bytes), { width, height }, 'image-size agrees');
}

function assertRefused(cases: Array<[string, Buffer]>): void {
  for (const [label, bytes] of cases) {
    assert.equal(measureImage(bytes), undefined, label);
  }
}

/** Offset of the first occurrence of a two-byte JPEG marker. */
const markerAt = (b: Buffer, code: number) => b.indexOf(Buffer.from([0xff, code]));

describe('image sizes only from images that decode', () => {
  describe('GIF', () => {
    it('measures GIFs whose first image decodes to its pixels', () => {
      for (const [w, h] of [
        [1, 1],
        [37, 23],
        [300, 200],
      ]) {
        assertMeasured(gif(w, h), 'gif', w, h);
      }
      assertMeasured(
        patched(gif(8, 8), (b) => b.write('GIF87a', 0, 'latin1')),
        'gif',
        8,
        8,
      );
      // The trailer and the empty sub-block after the data are not needed to show the image.
      const whole = gif(20, 10);
      assertMeasured(whole.subarray(0, whole.length - 2), 'gif', 20, 10);
    });

    it('refuses GIFs whose data does not cover the pixels they claim', () => {
      const whole = gif(64, 64);
      const descriptor = whole.indexOf(0x2c, 13 + 12);
      assertRefused([
        ['a logical screen of 65535 x 65535 and no data', lyingImages.gif],
        ['cut in the middle of its LZW data', whole.subarray(0, whole.length >> 1)],
        ['cut before its image descriptor', whole.subarray(0, 13 + 12)],
        [
          'a frame that claims more rows than its data has',
          patched(whole, (b) => b.writeUInt16LE(640, descriptor + 7)),
        ],
        ['an LZW minimum code size of 12', patched(whole, (b) => (b[descriptor + 10] = 12))],
        [
          'a clear code then the end code and nothing else',
          Buffer.concat([
            whole.subarray(0, descriptor + 10),
            // minimum code size 2: clear (4) and end (5) in 3-bit codes
            Buffer.from([2, 1, 0b00101100, 0, 0x3b]),
          ]),
        ],
        [
          'only a trailer after the screen',
          Buffer.concat([whole.subarray(0, 25), Buffer.from([0x3b])]),
        ],
      ]);
    });
  });

  describe('JPEG', () => {
    it('measures baseline, progressive and restart-coded JPEGs that decode', () => {
      for (const [w, h] of [
        [1, 1],
        [16, 16],
        [120, 80],
      ]) {
        assertMeasured(jpeg(w, h), 'jpg', w, h);
      }
      assertMeasured(fixture('progressive.jpg'), 'jpg', 40, 24);
      assertMeasured(fixture('restart.jpg'), 'jpg', 40, 24);
      for (const name of [
        'progressive-restart.jpg',
        'progressive-gray.jpg',
        'progressive-422.jpg',
      ]) {
        assertMeasured(fixture(name), 'jpg', 41, 23);
      }
      // Bytes after EOI are not part of the image.
      assertMeasured(Buffer.concat([jpeg(8, 8), Buffer.from('trailing')]), 'jpg', 8, 8);
    });

    it('refuses JPEGs that are cut, lack tables or scans, or whose data does not decode', () => {
      const whole = jpeg(64, 48);
      const sos = markerAt(whole, 0xda);
      const sof = markerAt(whole, 0xc0);
      const dataAt = sos + 2 + whole.readUInt16BE(sos + 2);
      const withoutSegment = (code: number) => {
        const b = Buffer.from(whole);
        let parts: Buffer[] = [];
        let at = 2;
        parts.push(b.subarray(0, 2));
        while (at < sos) {
          const length = b.readUInt16BE(at + 2);
          if (b[at + 1] !== code) parts.push(b.subarray(at, at + 2 + length));
          at += 2 + length;
        }
        parts = [...parts, b.subarray(sos)];
        return Buffer.concat(parts);
      };
      assertRefused([
        ['a frame of 65535 x 65535 and no scan', lyingImages.jpg],
        ['no EOI', whole.subarray(0, whole.length - 2)],
        ['cut in its entropy-coded data', whole.subarray(0, (dataAt + whole.length) >> 1)],
        [
          'entropy-coded data cut short but closed with EOI',
          Buffer.concat([whole.subarray(0, dataAt + 20), Buffer.from([0xff, 0xd9])]),
        ],
        ['a frame height raised to 4000', patched(whole, (b) => b.writeUInt16BE(4000, sof + 5))],
        ['no Huffman tables', withoutSegment(0xc4)],
        ['no quantisation tables', withoutSegment(0xdb)],
        [
          'no entropy-coded data',
          Buffer.concat([whole.subarray(0, dataAt), Buffer.from([0xff, 0xd9])]),
        ],
        [
          'Huffman data of all one bits (the reserved code)',
          Buffer.concat([
            whole.subarray(0, dataAt),
            Buffer.alloc(whole.length - 2 - dataAt, Buffer.from([0xff, 0x00])),
            Buffer.from([0xff, 0xd9]),
          ]),
        ],
        ['a segment length past the end', patched(whole, (b) => b.writeUInt16BE(0xffff, 4))],
        // Arithmetic coding (SOF9) is a JPEG that is not decoded here, so it has no size.
        ['arithmetic coding', fixture('arithmetic.jpg')],
      ]);
    });
  });

  describe('WebP', () => {
    it('measures lossless, lossy, alpha and animated WebPs whose structure holds', () => {
      assertMeasured(webp(1, 1), 'webp', 1, 1);
      assertMeasured(webp(64, 48), 'webp', 64, 48);
      assertMeasured(webp(4096, 4096), 'webp', 4096, 4096);
      assertMeasured(fixture('lossy.webp'), 'webp', 40, 24);
      assertMeasured(fixture('lossy-alpha.webp'), 'webp', 40, 24);
      assertMeasured(fixture('animated.webp'), 'webp', 40, 24);
    });

    it('refuses WebPs whose sizes disagree, whose data is missing, or that are too large', () => {
      const lossy = fixture('lossy.webp');
      const vp8 = lossy.subarray(20, 20 + lossy.readUInt32LE(16));
      const extended = fixture('lossy-alpha.webp');
      const animated = fixture('animated.webp');
      const vp8x = extended.subarray(20, 30);
      assertRefused([
        ['a VP8L header of 16384 x 16384 and nothing after it', lyingImages.webp],
        ['a lossless image over 64 MB of pixels', webp(16384, 16384)],
        ['a RIFF size past the end of the file', lossy.subarray(0, lossy.length - 8)],
        ['a VP8 chunk cut inside its first partition', riff([['VP8 ', vp8.subarray(0, 14)]])],
        [
          'a VP8 chunk without its DCT partitions',
          riff([['VP8 ', vp8.subarray(0, 10 + (vp8.readUIntLE(0, 3) >>> 5))]]),
        ],
        ['an interframe, not a key frame', riff([['VP8 ', patched(vp8, (b) => (b[0] |= 1))]])],
        ['a bad VP8 start code', riff([['VP8 ', patched(vp8, (b) => (b[3] = 0))]])],
        [
          'a VP8X canvas of 16000 x 1000 around a 40 x 24 image',
          patched(extended, (b) => {
            b.writeUIntLE(15999, 24, 3);
            b.writeUIntLE(999, 27, 3);
          }),
        ],
        ['a VP8X header and no image', riff([['VP8X', vp8x]])],
        [
          'an animation whose frames were cut off',
          riff([
            ['VP8X', animated.subarray(20, 30)],
            ['ANIM', animated.subarray(38, 44)],
          ]),
        ],
        ['a VP8L version other than 0', patched(webp(8, 8), (b) => (b[24] |= 0x20))],
      ]);
    });
  });

  describe('BMP', () => {
    it('measures BMPs whose pixel array is all there', () => {
      assertMeasured(bmp(5, 3), 'bmp', 5, 3);
      assertMeasured(bmp(1, 1), 'bmp', 1, 1);
      // Rows stored top down (a negative height).
      assertMeasured(
        patched(bmp(33, 7), (b) => b.writeInt32LE(-7, 22)),
        'bmp',
        33,
        7,
      );
      assertMeasured(rle8Bmp(4, 2, true), 'bmp', 4, 2);
    });

    it('refuses BMPs whose pixels are missing or cut', () => {
      const whole = bmp(16, 16);
      assertRefused([
        ['a header of 2147483647 x 2147483647 and no pixels', lyingImages.bmp],
        ['one byte short of its pixel array', whole.subarray(0, whole.length - 1)],
        ['a pixel offset past the end', patched(whole, (b) => b.writeUInt32LE(1 << 20, 10))],
        ['7 bits per pixel', patched(whole, (b) => b.writeUInt16LE(7, 28))],
        ['run-length data without its end-of-bitmap code', rle8Bmp(4, 2, false)],
        ['a JPEG inside (compression 4)', patched(whole, (b) => b.writeUInt32LE(4, 30))],
      ]);
    });
  });

  describe('AVIF', () => {
    it('measures AVIFs whose primary item holds a coded AV1 frame', () => {
      assertMeasured(fixture('opaque.avif'), 'avif', 40, 24);
      assertMeasured(fixture('alpha.avif'), 'avif', 40, 24);
    });

    it('refuses AVIFs whose size is not backed by a coded frame inside the file', () => {
      const whole = fixture('opaque.avif');
      const ispe = whole.indexOf('ispe');
      const mdat = whole.indexOf('mdat');
      const iloc = whole.indexOf('iloc');
      assert.deepEqual([whole[iloc + 4], whole.readUInt16BE(iloc + 8)], [0, 0x4400]);
      const withIspe = (w: number, h: number) =>
        patched(whole, (b) => {
          b.writeUInt32BE(w, ispe + 8);
          b.writeUInt32BE(h, ispe + 12);
        });
      assertRefused([
        ['an ispe of 65535 x 65535 and no coded data', lyingImages.avif],
        ['an ispe larger than the sequence header allows', withIspe(4000, 3000)],
        ['one column more than the coded frame', withIspe(41, 24)],
        ['cut inside its mdat box', whole.subarray(0, whole.length - 8)],
        ['coded data that is not AV1 OBUs', patched(whole, (b) => b.fill(0x80, mdat + 4))],
        [
          'an item extent past the end of the file',
          // iloc version 0, 4-byte offsets and lengths, no base offset: the first item's
          // extent offset follows the sizes, item count, item ID, reference and extent count.
          patched(whole, (b) => b.writeUInt32BE(1 << 24, iloc + 4 + 4 + 2 + 2 + 2 + 2 + 2)),
        ],
        [
          'a primary item that is a grid',
          patched(whole, (b) => b.write('grid', b.indexOf('av01'))),
        ],
        ['no primary item', patched(whole, (b) => b.write('xitm', b.indexOf('pitm')))],
      ]);
    });
  });

  describe('ICO and CUR', () => {
    it('measures the largest embedded PNG or BMP that decodes', () => {
      assertMeasured(ico([16, 32, 64]), 'ico', 64, 64);
      assertMeasured(ico([16, 48, 32]), 'ico', 48, 48);
      assertMeasured(ico([256]), 'ico', 256, 256);
      assertMeasured(icoOf([dib(24, 24, 32), dib(16, 16, 8)]), 'ico', 24, 24);
      const cursor = patched(icoOf([dib(32, 32, 32)]), (b) => b.writeUInt16LE(2, 2));
      assert.deepEqual(measureImage(cursor), { width: 32, height: 32, format: 'cur' });
    });

    it('counts no entry whose data is outside the file or does not decode', () => {
      const good = png(16, 16);
      // A lying entry beside a good one: only the good one is measured.
      assert.deepEqual(measureImage(icoOf([lyingImages.png, good])), {
        width: 16,
        height: 16,
        format: 'ico',
      });
      const whole = ico([32]);
      assertRefused([
        ['an entry of 256 x 256 whose offset is past the end', lyingImages.ico],
        ['an entry that runs past the end', whole.subarray(0, whole.length - 1)],
        ['an entry offset inside the directory', patched(whole, (b) => b.writeUInt32LE(6, 18))],
        ['an entry whose PNG lies about its size', icoOf([lyingImages.png])],
        ['a BMP entry without its colour pixels', icoOf([dib(64, 64, 32).subarray(0, 40 + 100)])],
        ['a directory cut short', whole.subarray(0, 12)],
        ['no images', Buffer.from([0, 0, 1, 0, 0, 0])],
      ]);
    });
  });
});

describe('image checks on damaged input', () => {
  // Each check reads only within the bytes it is given: cut and flipped copies of valid
  // images of every format give a size or none, never an exception (fixed seed, CI-sized).
  const samples: Array<[string, (b: Uint8Array) => unknown, Buffer]> = [
    ['gif', gifSize, gif(37, 23)],
    ['jpeg', jpegSize, jpeg(24, 16)],
    ['progressive jpeg', jpegSize, fixture('progressive.jpg')],
    ['webp lossless', webpSize, webp(16, 16)],
    ['webp lossy', webpSize, fixture('lossy.webp')],
    ['webp animated', webpSize, fixture('animated.webp')],
    ['bmp', bmpSize, bmp(9, 5)],
    ['bmp rle8', bmpSize, rle8Bmp(6, 3, true)],
    ['ico', icoSize, icoOf([png(16, 16), dib(8, 8, 4)])],
    ['avif', avifSize, fixture('alpha.avif')],
  ];
  for (const [label, check, sample] of samples) {
    it(`${label}: never throws on cut or flipped bytes`, () => {
      fc.assert(
        fc.property(
          fc.nat({ max: sample.length }),
          fc.array(fc.tuple(fc.nat({ max: sample.length - 1 }), fc.integer({ min: 1, max: 255 })), {
            maxLength: 4,
          }),
          (cut, flips) => {
            const bytes = Buffer.from(sample.subarray(0, cut));
            for (const [at, mask] of flips) if (at < bytes.length) bytes[at] ^= mask;
            check(bytes);
          },
        ),
        { seed: 29, numRuns: 300 },
      );
    });
  }
});

/** An 8-bit RLE BMP of `width` x `height`: one run per row, then end of bitmap if asked. */
function rle8Bmp(width: number, height: number, ended: boolean): Buffer {
  const runs: number[] = [];
  for (let y = 0; y < height; y += 1) runs.push(width, 1, 0, 0);
  if (ended) runs.push(0, 1);
  const palette = Buffer.alloc(4 * 2);
  const header = Buffer.alloc(54);
  header.write('BM', 0, 'latin1');
  header.writeUInt32LE(54 + palette.length, 10);
  header.writeUInt32LE(40, 14);
  header.writeInt32LE(width, 18);
  header.writeInt32LE(height, 22);
  header.writeUInt16LE(1, 26);
  header.writeUInt16LE(8, 28);
  header.writeUInt32LE(1, 30); // BI_RLE8
  header.writeUInt32LE(2, 46); // two palette entries
  return Buffer.concat([header, palette, Buffer.from(runs)]);
}

/** An ICO entry's DIB: BITMAPINFOHEADER with the doubled height, palette, pixels, mask. */
function dib(width: number, height: number, bitsPerPixel: number): Buffer {
  const header = Buffer.alloc(40);
  header.writeUInt32LE(40, 0);
  header.writeInt32LE(width, 4);
  header.writeInt32LE(height * 2, 8);
  header.writeUInt16LE(1, 12);
  header.writeUInt16LE(bitsPerPixel, 14);
  const palette = Buffer.alloc(bitsPerPixel <= 8 ? 4 << bitsPerPixel : 0);
  const pixels = Buffer.alloc(Math.ceil((width * bitsPerPixel) / 32) * 4 * height);
  const mask = Buffer.alloc(Math.ceil(width / 32) * 4 * height);
  return Buffer.concat([header, palette, pixels, mask]);
}

/** An ICO holding these images as they are, the directory naming each one's size. */
function icoOf(images: Buffer[]): Buffer {
  const header = Buffer.from([0, 0, 1, 0, images.length, 0]);
  let offset = 6 + 16 * images.length;
  const entries = images.map((image) => {
    const entry = Buffer.alloc(16);
    const isPng = image[0] === 0x89;
    const width = isPng ? image.readUInt32BE(16) : image.readInt32LE(4);
    const height = isPng ? image.readUInt32BE(20) : image.readInt32LE(8) / 2;
    entry[0] = width >= 256 ? 0 : width;
    entry[1] = height >= 256 ? 0 : height;
    entry.writeUInt16LE(1, 4);
    entry.writeUInt16LE(32, 6);
    entry.writeUInt32LE(image.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += image.length;
    return entry;
  });
  return Buffer.concat([header, ...entries, ...images]);
}
