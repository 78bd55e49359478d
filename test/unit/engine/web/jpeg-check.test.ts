// The JPEG check decodes only the entropy-coded data (src/engine/web/jpeg-check.ts); jpeg-js,
// a full decoder written independently of it, is the reference. For JPEGs jpeg-js writes at
// many sizes and qualities, the cjpeg fixtures (progressive, restarts, grey, 4:2:0, 4:2:2),
// and cut, cut-and-closed and bit-flipped copies of both, the check must measure exactly what
// jpeg-js decodes, except where T.81 forbids what jpeg-js lets through: each such refusal
// names its reason, and every reason is listed below with the clause that makes it right.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { decode, encode } from 'jpeg-js';
import { MAX_RAW_BYTES } from '../../../../src/engine/web/decode-bounds';
import { jpegCheck } from '../../../../src/engine/web/jpeg-check';
import { jpeg } from '../../../support/web-images';

const FIXTURES = join(__dirname, '../../../fixtures/images');
const CJPEG_FIXTURES = [
  'progressive.jpg',
  'restart.jpg',
  'progressive-restart.jpg',
  'progressive-gray.jpg',
  'progressive-422.jpg',
].map((name) => ({ name, bytes: readFileSync(join(FIXTURES, name)) }));

/**
 * What jpeg-js decodes and T.81 does not allow, by the check's reason for refusing it. jpeg-js
 * reads most segments by their content and never checks the fields below; it throws only when
 * its own decoding cannot go on.
 */
const REFUSED_BY_T81: Readonly<Record<string, string>> = {
  'segment length': 'B.1.1.4: a segment is as long as its length field says',
  'SOF length': 'B.2.2: Lf = 8 + 3 x Nf',
  'SOS length': 'B.2.3: Ls = 6 + 2 x Ns',
  'DHT length': 'B.2.4.2: Lh covers exactly the tables',
  'DQT length': 'B.2.4.1: Lq covers exactly the tables',
  'DRI length': 'B.2.4.4: Lr = 4',
  // jpeg-js guesses that an overlong APPn length ate a marker's 0xFF and backs up 3 bytes.
  'marker expected': 'B.1.1.2: a marker segment follows another, or the scan data',
  'sample precision': 'B.2.2, table B.2: P is 8, or 12 in the extended and progressive processes',
  'sampling factor or table': 'B.2.2: Hi and Vi are 1 to 4, Tqi 0 to 3',
  'duplicate component': 'B.2.2: each Ci names one component',
  'scan component': 'B.2.3: each Csj is one of the frame components, each once',
  'DQT table': 'B.2.4.1: Pq is 0 or 1, Tq 0 to 3',
  'DHT table': 'B.2.4.2: Tc is 0 or 1, Th 0 to 3',
  'spectral selection':
    'G.1.1.1.1: a DC scan has Ss = Se = 0; an AC scan Ss <= Se <= 63, one component',
  'successive approximation': 'G.1.1.1.2: Al <= 13, and a refinement has Ah = Al + 1',
  'DC category':
    'F.1.2.1.1 table F.1, F.1.5.1: a DC difference category is at most 11 (15 at 12 bits)',
  // jpeg-js leaves the missing coefficients 0: a grey image where there was none.
  'component not coded': 'B.2.1, E.2.1: the scans of a frame code every component',
  // jpeg-js ends a scan at any marker other than RSTn after a restart interval.
  'scan ends early': 'A.2, F.1.2.3: a scan codes every MCU, a restart marker between intervals',
  'end-of-band run past a restart': 'F.1.2.3, G.1.2.2: decoding restarts afresh after RSTm',
  'run past the band': 'G.1.2.3: the zeros a refinement skips lie within Ss..Se',
};

/** jpeg-js's answer, within the bounds the check keeps: a size, or why it did not decode. */
function reference(bytes: Uint8Array): string {
  try {
    const image = decode(bytes, {
      useTArray: true,
      formatAsRGBA: false,
      tolerantDecoding: false,
      maxResolutionInMP: MAX_RAW_BYTES / 4 / 1e6,
      maxMemoryUsageInMB: (2 * MAX_RAW_BYTES) / (1024 * 1024),
    });
    return `${image.width}x${image.height}`;
  } catch (err) {
    // A TypeError is jpeg-js failing in its own code (a 41-pixel-wide 4:2:2 image cut to 40
    // wide, valid by B.2.2, reads past an array), not a verdict on the data: nothing to hold
    // the check to.
    if (err instanceof TypeError) return CRASHED;
    return `refused: ${(err as Error).message}`;
  }
}

const CRASHED = 'jpeg-js crashed';

/** Holds the check against jpeg-js on one input; returns the reason of an allowed refusal. */
function assertAgrees(bytes: Uint8Array, label: string): string | undefined {
  const expected = reference(bytes);
  const verdict = jpegCheck(bytes);
  if (expected === CRASHED) return CRASHED;
  const got =
    typeof verdict === 'string' ? `refused: ${verdict}` : `${verdict.width}x${verdict.height}`;
  if (got === expected || (expected.startsWith('refused') && got.startsWith('refused'))) {
    return undefined;
  }
  assert.ok(
    !expected.startsWith('refused') && typeof verdict === 'string' && verdict in REFUSED_BY_T81,
    `${label}: jpeg-js ${expected}, check ${got}`,
  );
  return verdict;
}

/** A JPEG jpeg-js writes of pixels of noise: long Huffman codes, few end-of-blocks. */
function noiseJpeg(width: number, height: number, quality: number, seed: number): Buffer {
  const data = Buffer.alloc(width * height * 4);
  let state = seed;
  for (let i = 0; i < data.length; i += 1) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    data[i] = (i * 3 + (state >>> 26)) & 0xff;
  }
  return Buffer.from(encode({ width, height, data }, quality).data);
}

/**
 * JPEGs jpeg-js writes, of a gradient (see web-images.ts) or of noise, at sizes and qualities
 * drawn with a fixed seed; made once, as each jpeg-js encoder builds its tables anew (10 ms).
 */
const JPEG_JS_IMAGES = fc
  .sample(
    fc.record({
      width: fc.integer({ min: 1, max: 160 }),
      height: fc.integer({ min: 1, max: 120 }),
      quality: fc.integer({ min: 1, max: 100 }),
      noise: fc.option(fc.nat(), { nil: undefined }),
    }),
    { seed: 2929, numRuns: 60 },
  )
  .map(({ width, height, quality, noise }) => ({
    label: `jpeg-js ${width}x${height} q${quality}${noise === undefined ? '' : ` noise ${noise}`}`,
    width,
    height,
    bytes:
      noise === undefined ? jpeg(width, height, quality) : noiseJpeg(width, height, quality, noise),
  }));

type Damage =
  | { kind: 'none' }
  | { kind: 'cut' | 'cut and closed'; at: number }
  | { kind: 'flip'; at: number; bit: number };

/** Where in the file, as a fraction (uniform: fc.double's floats crowd towards 0). */
const fraction = fc.integer({ min: 0, max: 1 << 20 }).map((n) => n / (1 << 20));

const damage: fc.Arbitrary<Damage> = fc.oneof(
  { weight: 1, arbitrary: fc.constant({ kind: 'none' as const }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constantFrom('cut' as const, 'cut and closed' as const),
      at: fraction,
    }),
  },
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('flip' as const),
      at: fraction,
      bit: fc.integer({ min: 0, max: 7 }),
    }),
  },
);

function damaged(bytes: Buffer, d: Damage): Buffer {
  if (d.kind === 'none') return bytes;
  const at = Math.min(bytes.length - 1, Math.floor(d.at * bytes.length));
  if (d.kind === 'cut') return bytes.subarray(0, at);
  if (d.kind === 'cut and closed') {
    return Buffer.concat([bytes.subarray(0, at), Buffer.from([0xff, 0xd9])]);
  }
  const copy = Buffer.from(bytes);
  if (d.kind === 'flip') copy[at] ^= 1 << d.bit;
  return copy;
}

describe('JPEG check against jpeg-js', () => {
  it('measures what jpeg-js writes, at many sizes and qualities, and every cjpeg fixture', () => {
    for (const { name, bytes } of CJPEG_FIXTURES) {
      assert.equal(assertAgrees(bytes, name), undefined, name);
      assert.equal(typeof jpegCheck(bytes), 'object', name);
    }
    for (const { label, width, height, bytes } of JPEG_JS_IMAGES) {
      assert.deepEqual(jpegCheck(bytes), { width, height }, label);
      assert.equal(reference(bytes), `${width}x${height}`, label);
    }
  });

  it('refuses exactly what jpeg-js refuses among cut and bit-flipped copies', () => {
    const allowed = new Map<string, number>();
    let runs = 0;
    fc.assert(
      fc.property(
        fc.oneof(
          fc.constantFrom(...JPEG_JS_IMAGES),
          fc.constantFrom(...CJPEG_FIXTURES).map(({ name, bytes }) => ({ label: name, bytes })),
        ),
        damage,
        ({ label, bytes }, d) => {
          runs += 1;
          const reason = assertAgrees(damaged(bytes, d), `${label}, ${JSON.stringify(d)}`);
          if (reason) allowed.set(reason, (allowed.get(reason) ?? 0) + 1);
        },
      ),
      { seed: 2930, numRuns: 4000, unbiased: true },
    );
    // The allowed disagreements stay the exception: jpeg-js is a fair reference.
    const disagreements = [...allowed.values()].reduce((a, b) => a + b, 0);
    assert.ok(
      disagreements < runs / 10,
      `${disagreements} of ${runs}: ${JSON.stringify([...allowed])}`,
    );
  });

  // Found by the property above with other seeds than CI's (each a case of its own now).
  it('keeps the coefficient a first AC scan names past its band, for the refinements after it', () => {
    // progressive.jpg's AC table for the scan of band 1..5 with its second value 0x01 turned
    // to 0x81 (a run of 8): the coefficient lands past Se, where libjpeg and jpeg-js put it,
    // and the later refinement of that band reads a correction bit for it
    const bytes = Buffer.from(CJPEG_FIXTURES[0].bytes);
    assert.equal(bytes[287], 0x01);
    bytes[287] = 0x81;
    assert.equal(reference(bytes), '40x24');
    assert.deepEqual(jpegCheck(bytes), { width: 40, height: 24 });
  });

  it('measures a 4:2:2 image whose width is cut by one, where jpeg-js fails in its own code', () => {
    const bytes = Buffer.from(CJPEG_FIXTURES[4].bytes);
    assert.equal(bytes.readUInt16BE(165), 41); // SOF2's X
    bytes.writeUInt16BE(40, 165);
    assert.equal(reference(bytes), CRASHED);
    assert.deepEqual(jpegCheck(bytes), { width: 40, height: 23 });
  });

  it('refuses a progressive JPEG whose scans visit each block too often', () => {
    // progressive.jpg's DC refinement scan (SOS Ss=0 Se=0 Ah=1 Al=0 and its data), sent again
    // 70 times: each copy decodes, but the check stops at 64 visits of each block.
    const bytes = CJPEG_FIXTURES[0].bytes;
    const sos = Buffer.from([0xff, 0xda, 0x00, 0x0c, 0x03, 0x01, 0x00, 0x02, 0x00, 0x03, 0x00]);
    const refinement = bytes.indexOf(Buffer.concat([sos, Buffer.from([0x00, 0x00, 0x10])]));
    assert.ok(refinement > 0, 'the fixture has its DC refinement scan');
    const end = bytes.indexOf(Buffer.from([0xff, 0xc4]), refinement);
    const scan = bytes.subarray(refinement, end);
    const eoi = bytes.length - 2;
    const repeated = (n: number) =>
      Buffer.concat([bytes.subarray(0, eoi), ...Array<Buffer>(n).fill(scan), bytes.subarray(eoi)]);
    assert.deepEqual(jpegCheck(repeated(2)), { width: 40, height: 24 });
    assert.equal(jpegCheck(repeated(70)), 'too many scans');
    assert.equal(reference(repeated(70)), '40x24', 'jpeg-js decodes every one of them');
  });

  it('refuses each malformed header with its reason', () => {
    const whole = jpeg(24, 16);
    const sof = whole.indexOf(Buffer.from([0xff, 0xc0]));
    const sos = whole.indexOf(Buffer.from([0xff, 0xda]));
    const patched = (patch: (b: Buffer) => void) => {
      const copy = Buffer.from(whole);
      patch(copy);
      return copy;
    };
    const cases: Array<[string, Buffer]> = [
      ['sample precision', patched((b) => (b[sof + 4] = 12))], // 12 bits is not baseline
      ['sampling factor or table', patched((b) => (b[sof + 11] = 0x51))],
      ['duplicate component', patched((b) => (b[sof + 13] = b[sof + 10]))],
      ['scan component', patched((b) => (b[sos + 5] = 9))],
      ['not a JPEG', whole.subarray(1)],
      ['cut', whole.subarray(0, whole.length - 2)],
      ['segment length', whole.subarray(0, sos + 4)],
      ['marker not decoded here', readFileSync(join(FIXTURES, 'arithmetic.jpg'))],
      [
        'second frame',
        Buffer.concat([whole.subarray(0, sos), whole.subarray(sof, sof + 19), whole.subarray(sos)]),
      ],
    ];
    for (const [reason, bytes] of cases) assert.equal(jpegCheck(bytes), reason);
  });
});
