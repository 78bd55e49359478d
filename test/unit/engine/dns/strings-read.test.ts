// The lean reader of TXT and SPF data (codecs.ts, writeCharStrings) against the `strings`
// codec: on generated character-strings, plain and escaped, quoted or bare, of 0 to 300
// octets, with escapes over 255, non-ASCII text and the RFC 3597 form, the zone parser's call
// (textFromWire) gives the codec's wire form, text and errors.
import * as assert from 'node:assert/strict';
import { bothWays } from '../../../support/lean-rdata';
import { seeded } from '../../../support/prng';

const SEED = 24;
const CASES = 600;

function generator(seed: number) {
  const rand = seeded(seed);
  const int = (n: number) => Math.floor(rand() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)];
  const pieces = [
    'a',
    'Z',
    '0',
    ' ',
    ';',
    '=',
    '-',
    '\\"',
    '\\\\',
    '\\059',
    '\\255',
    '\\256',
    '\\999',
    '\\x',
    'é',
    '\t',
    '~',
  ];
  /** a character-string as a zone file writes it */
  const string = () => {
    const r = rand();
    let text: string;
    if (r < 0.15) text = 'v'.repeat(pick([254, 255, 256, 300]));
    else if (r < 0.2) text = '';
    else {
      text = '';
      const n = int(20);
      for (let i = 0; i < n; i++) text += rand() < 0.7 ? pick(pieces.slice(0, 3)) : pick(pieces);
    }
    // a bare word has no blanks, quotes or semicolons to end it
    return rand() < 0.2 && /^[^\s";()]+$/.test(text) ? text : `"${text}"`;
  };
  return (): [string, string] => {
    const type = rand() < 0.8 ? 'TXT' : 'SPF';
    if (rand() < 0.05) return [type, pick(['\\# 0', '\\# 2 0161', '\\# 3 0161', '"\\#"'])];
    const count = pick([0, 1, 1, 1, 2, 3]);
    return [type, Array.from({ length: count }, string).join(' ')];
  };
}

describe('engine/dns rdata: the lean TXT and SPF reader agrees with the codec', () => {
  it(`${CASES} generated records of TXT and SPF (seed ${SEED})`, () => {
    const record = generator(SEED);
    let textless = 0;
    let refused = 0;
    for (let i = 0; i < CASES; i++) {
      const [type, data] = record();
      const both = bothWays(type, data);
      assert.deepEqual(both.lean, both.codecs, `${type} ${data}`);
      if (both.textless) textless++;
      if ('code' in both.codecs) refused++;
    }
    // both sides of the lean reader are exercised: taken, and left to the codec
    assert.ok(textless > CASES / 3, `lean reader took ${textless} of ${CASES}`);
    assert.ok(refused > CASES / 10, `${refused} of ${CASES} refused`);
  });

  it('the usual strings, escaped ones too, are read without making their text', () => {
    for (const data of [
      '"v=spf1 -all"',
      '"v=spf1 -all" "a \\"quoted\\" \\059 text"',
      'bare',
      '""',
      `"${'x'.repeat(255)}"`,
    ]) {
      const both = bothWays('TXT', data);
      assert.deepEqual(both.lean, both.codecs, data);
      assert.equal(both.textless, true, data);
    }
  });

  it('RFC 3597 data and over-long strings are the codec’s, with its errors', () => {
    for (const data of ['\\# 2 0161', `"${'x'.repeat(256)}"`, '"\\300"', '']) {
      const both = bothWays('TXT', data);
      assert.deepEqual(both.lean, both.codecs, data);
      assert.equal(both.textless, false, data);
    }
  });
});
