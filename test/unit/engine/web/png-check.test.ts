// Image sizes only from images that decode (issue 29): a PNG whose header claims a size with
// nothing behind it, or whose chunks are damaged, has no size and is no icon.
import assert from 'node:assert/strict';
import { deflateSync } from 'node:zlib';
import { measureImage } from '../../../../src/engine/web/image';
import { pngDecodes } from '../../../../src/engine/web/png-check';
import { lyingPng } from '../../../support/hostile-upstreams';
import { png, pngChunk } from '../../../support/web-images';

/** A PNG of the given chunks, each with its right CRC. */
function pngOf(chunks: Array<[string, Buffer]>): Buffer {
  const parts = chunks.map(([type, data]) => pngChunk(type, data));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ...parts]);
}

function ihdr(width: number, height: number, depth = 8, type = 6, interlace = 0): Buffer {
  const b = Buffer.alloc(13);
  b.writeUInt32BE(width, 0);
  b.writeUInt32BE(height, 4);
  b[8] = depth;
  b[9] = type;
  b[12] = interlace;
  return b;
}

describe('PNG sizes only from PNGs that decode', () => {
  it('measures a PNG whose data inflates to its rows', () => {
    assert.ok(pngDecodes(png(48, 16)));
    assert.deepEqual(measureImage(png(48, 16)), { width: 48, height: 16, format: 'png' });
    // Grey, 1 bit per pixel: 10 pixels pack into 2 bytes a row.
    const grey = pngOf([
      ['IHDR', ihdr(10, 3, 1, 0)],
      ['IDAT', deflateSync(Buffer.alloc(3 * 3))],
      ['IEND', Buffer.alloc(0)],
    ]);
    assert.equal(measureImage(grey)?.width, 10);
  });

  const broken: Array<[string, Buffer]> = [
    [
      'a header claiming 2147483647 x 2147483647 with a bad CRC and no data',
      lyingPng(2147483647, 2147483647),
    ],
    [
      'a right CRC but no image data',
      pngOf([
        ['IHDR', ihdr(2147483647, 2147483647)],
        ['IEND', Buffer.alloc(0)],
      ]),
    ],
    [
      'data for fewer rows than the header claims',
      pngOf([
        ['IHDR', ihdr(64, 64)],
        ['IDAT', deflateSync(Buffer.alloc(10 * 257))],
        ['IEND', Buffer.alloc(0)],
      ]),
    ],
    [
      'data that is not zlib',
      pngOf([
        ['IHDR', ihdr(4, 4)],
        ['IDAT', Buffer.from('not deflate')],
        ['IEND', Buffer.alloc(0)],
      ]),
    ],
    ['no IEND', png(4, 4).subarray(0, png(4, 4).length - 12)],
    [
      'a damaged CRC',
      Buffer.from(png(4, 4).map((b, i, all) => (i === all.length - 13 ? b ^ 1 : b))),
    ],
    [
      'an unknown colour type',
      pngOf([
        ['IHDR', ihdr(1, 1, 8, 5)],
        ['IDAT', deflateSync(Buffer.alloc(2))],
        ['IEND', Buffer.alloc(0)],
      ]),
    ],
    [
      'a size whose rows would take more than 64 MB',
      pngOf([
        ['IHDR', ihdr(100_000, 100_000)],
        ['IDAT', deflateSync(Buffer.alloc(16))],
        ['IEND', Buffer.alloc(0)],
      ]),
    ],
  ];
  for (const [label, bytes] of broken) {
    it(`gives no size for ${label}`, () => {
      assert.equal(pngDecodes(bytes), false);
      assert.equal(measureImage(bytes), undefined);
    });
  }
});
