import assert from 'node:assert/strict';
import fc from 'fast-check';
import { detectCharset, PRESCAN_BYTES, utf8Cut } from '../../../../src/engine/web/charset';
import { HeadExtractor, type HeadMeta } from '../../../../src/engine/web/html';
import { extractFromBytes } from '../../../../src/engine/web/page';

// Bytes that stress a UTF-8 decoder: ASCII, whole characters of every length, byte order
// marks, and lone lead, continuation and never-valid bytes (including the narrower second
// bytes after E0, ED, F0 and F4).
const piece = fc.oneof(
  fc.constantFrom('<', '>', 'a', ' ', '<title>', '</title>', '<meta name="description" content="'),
  fc.constantFrom('é', '€', '😀', '\u{10ffff}', '\ufeff', 'ж', '中'),
  fc.constantFrom(
    [0xe0],
    [0xe0, 0x80],
    [0xe0, 0xa0],
    [0xed, 0xa0],
    [0xed, 0x9f],
    [0xf0, 0x8f],
    [0xf0, 0x90, 0x80],
    [0xf4, 0x90],
    [0xf4, 0x8f, 0xbf],
    [0xc0],
    [0xc1, 0xbf],
    [0xc2],
    [0x80],
    [0xbf, 0xbf],
    [0xf5],
    [0xff],
    [0xef, 0xbb, 0xbf],
  ),
);

function bytesOf(pieces: ReadonlyArray<string | readonly number[]>): Buffer {
  return Buffer.concat(
    pieces.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from([...p]))),
  );
}

/** The reference: TextDecoder in stream mode over slices of `size` bytes. */
function streamed(bytes: Uint8Array, size: number): string[] {
  const decoder = new TextDecoder('utf-8');
  const out: string[] = [];
  for (let at = 0; at < bytes.length; at += size) {
    out.push(decoder.decode(bytes.subarray(at, at + size), { stream: true }));
  }
  out.push(decoder.decode());
  return out;
}

/** The same slices cut with utf8Cut and decoded by Buffer. */
function cut(bytes: Buffer, size: number): string[] {
  const out: string[] = [];
  let start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  for (let at = 0; at < bytes.length; at += size) {
    const end = utf8Cut(bytes, Math.min(at + size, bytes.length));
    out.push(start < end ? bytes.toString('utf8', start, end) : '');
    start = Math.max(start, end);
  }
  out.push(start < bytes.length ? bytes.toString('utf8', start) : '');
  return out;
}

/** extractFromBytes as it was written with TextDecoder alone. */
function referenceExtract(bytes: Uint8Array, contentType: string): HeadMeta {
  const charset = detectCharset(bytes.subarray(0, PRESCAN_BYTES), contentType, true);
  const extractor = new HeadExtractor();
  const decoder = new TextDecoder(charset.encoding);
  for (let at = charset.skip; at < bytes.length && !extractor.finished; at += 16 * 1024) {
    extractor.write(decoder.decode(bytes.subarray(at, at + 16 * 1024), { stream: true }));
  }
  if (!extractor.finished) extractor.write(decoder.decode());
  return extractor.end();
}

const plain = (m: HeadMeta) => ({ ...m, names: [...m.names], twitter: [...m.twitter] });

describe('web charset: UTF-8 slices', () => {
  it('cuts where a streaming TextDecoder holds back, so every slice decodes alike', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), fc.integer({ min: 1, max: 9 }), (p, size) => {
        const bytes = bytesOf(p);
        assert.deepEqual(cut(bytes, size), streamed(bytes, size));
      }),
      { numRuns: 2000 },
    );
  });

  it('holds back only an unfinished character', () => {
    const euro = Buffer.from('a€', 'utf8'); // 61 e2 82 ac
    assert.equal(utf8Cut(euro, 4), 4);
    assert.equal(utf8Cut(euro, 3), 1);
    assert.equal(utf8Cut(euro, 2), 1);
    assert.equal(utf8Cut(Buffer.from([0x61, 0xe0, 0x80]), 3), 3); // E0 80 is never valid
    assert.equal(utf8Cut(Buffer.from([0x61, 0xf4, 0x8f, 0xbf]), 4), 1);
    assert.equal(utf8Cut(Buffer.from([0x80, 0x80, 0x80]), 3), 3);
  });

  it('extracts the same head from a UTF-8 page as TextDecoder slices would', () => {
    const big = fc.array(piece, { maxLength: 40 }).map((p) => bytesOf(p).toString('latin1'));
    const boms = fc.constantFrom('', '\ufeff', '\ufeff\ufeff');
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 40 }),
        fc.nat(40_000),
        big,
        boms,
        (p, pad, tail, bom) => {
          // Padding moves the characters across the 16 KB slice boundaries.
          const bytes = Buffer.concat([
            Buffer.from(`${bom}<html><head><title>`),
            Buffer.alloc(pad, 0x20),
            bytesOf(p),
            Buffer.from('</title><meta name="description" content="'),
            Buffer.from(tail, 'latin1'),
            Buffer.from('"></head><body>x</body></html>'),
          ]);
          const contentType = 'text/html; charset=utf-8';
          assert.deepEqual(
            plain(extractFromBytes(bytes, contentType)),
            plain(referenceExtract(bytes, contentType)),
          );
        },
      ),
      { numRuns: 200 },
    );
  });
});
