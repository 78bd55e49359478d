// The lean readers of the DNSSEC types (dnssec-read.ts) against the per-field codecs: on
// generated record data, the plain forms signers write and the forms only the codecs take
// (mnemonics, capitals and escapes in names, relative names, leading zeros, base64 cut
// anywhere or with set padding bits, unsorted and repeated bit-map types, bad lengths, missing
// and extra fields), the zone parser's call (textFromWire) gives the codecs' wire form, text
// and errors.
import * as assert from 'node:assert/strict';
import {
  fromBase32Hex,
  isBase32Hex,
  toBase32Hex,
} from '../../../../src/engine/dns/rdata/base32hex';
import { bothWays } from '../../../support/lean-rdata';
import { seeded } from '../../../support/prng';

const SEED = 27;
const CASES = 400;

type Pick = <T>(items: readonly T[]) => T;

function generator(seed: number) {
  const rand = seeded(seed);
  const int = (n: number) => Math.floor(rand() * n);
  const pick: Pick = (items) => items[int(items.length)];
  const chars = (alphabet: string, n: number) =>
    Array.from({ length: n }, () => alphabet[int(alphabet.length)]).join('');
  const base64 = (octets: number) =>
    Buffer.from(chars('\x00\x7f\xffab', octets), 'latin1').toString('base64');
  /** base64 as it may be written: cut into pieces, sometimes at odd places, sometimes broken */
  const written64 = () => {
    let text = base64(pick([1, 2, 3, 20, 64, 65, 66, 256]));
    const r = rand();
    if (r < 0.08)
      text = text.replace(/=$/, ''); // a padding digit short
    else if (r < 0.16 && text.endsWith('=='))
      text = `${text.slice(0, -3)}B==`; // padding bits set
    else if (r < 0.2) text = `${text}*`;
    else if (r < 0.22 && /[^=]=$/.test(text))
      text = `${text.slice(0, -2)}D=`; // one padding digit, the bits it drops set
    else if (r < 0.24)
      text = `AA==${text}`; // padding before more digits
    else if (r < 0.26)
      text = `${text.replace(/=+$/, '')}===`.slice(-text.length); // three pads
    else if (r < 0.28) text = `${text.slice(0, -4)}A-_é`; // digits of other alphabets
    const pieces: string[] = [];
    for (let i = 0; i < text.length;) {
      const n = pick([4, 7, 36, 56, 1000]);
      pieces.push(text.slice(i, i + n));
      i += n;
    }
    return pieces.join(' ');
  };
  const number = (max: number) =>
    pick([String(int(max + 1)), String(max), String(max + 1), `00${int(10)}`, '-1', 'x', '1e3']);
  const name = () =>
    pick([
      '.',
      'example.com.',
      'Example.COM.',
      'sub',
      '@',
      'a\\.b.example.com.',
      '\\065.example.com.',
      'x..y.',
      'ns1.example.com',
    ]);
  const typeList = () => {
    const types = Object.keys(TYPE_CODES);
    const list = Array.from({ length: int(6) }, () => pick(types));
    if (rand() < 0.7) list.sort((a, b) => TYPE_CODES[a] - TYPE_CODES[b]);
    if (rand() < 0.1) list.push(pick(['a', 'rrsig', 'BOGUS', 'TYPE65536']));
    return list.join(' ');
  };
  const alg = () =>
    rand() < 0.85
      ? pick(['8', '13', '15', '5'])
      : pick(['RSASHA256', 'ecdsap256sha256', '256', '013']);
  const time = () =>
    rand() < 0.85
      ? pick(['20261227053204', '20261127053204', '1764226324'])
      : pick(['20261332000000', '4294967296', '2026112705320', '20260229000000']);
  const hex = (octets: number) => chars('0123456789abcdefABCDEF', octets * 2);
  const hash32 = (octets: number) =>
    toBase32Hex(Buffer.from(chars('abc\x00\xff', octets), 'latin1'));
  const record = (): [string, string] => {
    const type = pick(['RRSIG', 'NSEC', 'NSEC3', 'DS', 'CDS', 'DNSKEY', 'CDNSKEY']);
    let data: string;
    switch (type) {
      case 'RRSIG':
        data = [
          rand() < 0.9
            ? pick(['A', 'NS', 'SOA', 'DNSKEY', 'NSEC3'])
            : pick(['aaaa', '1', 'TYPE99', 'BOGUS']),
          alg(),
          rand() < 0.9 ? pick(['2', '3']) : number(255),
          rand() < 0.9 ? '86400' : number(4294967295),
          time(),
          time(),
          rand() < 0.9 ? String(int(65536)) : number(65535),
          name(),
          written64(),
        ].join(' ');
        break;
      case 'NSEC':
        data = `${name()} ${typeList()}`;
        break;
      case 'NSEC3': {
        const hash = rand() < 0.85 ? hash32(20) : hash32(pick([1, 19, 21, 32]));
        data = [
          rand() < 0.9 ? '1' : number(255),
          rand() < 0.9 ? pick(['0', '1']) : number(255),
          rand() < 0.9 ? pick(['0', '10']) : number(65535),
          rand() < 0.8 ? '-' : pick([hex(4), 'ABC', 'zz', hex(256)]),
          rand() < 0.9
            ? rand() < 0.5
              ? hash.toUpperCase()
              : hash
            : pick(['w', 'abc', '00000000000000000000000000000001']),
          typeList(),
        ].join(' ');
        break;
      }
      case 'DS':
      case 'CDS': {
        const digestType = rand() < 0.9 ? pick(['1', '2', '4']) : pick(['3', '7', '0', 'x']);
        const length = { '1': 20, '2': 32, '4': 48 }[digestType] ?? 32;
        const digest = hex(rand() < 0.9 ? length : pick([1, 19, 33]));
        data = [
          String(int(65536)),
          alg(),
          digestType,
          rand() < 0.5 ? digest : `${digest.slice(0, 7)} ${digest.slice(7)}`,
        ].join(' ');
        if (rand() < 0.05) data = `${data}g`;
        break;
      }
      default:
        data = [
          rand() < 0.9 ? pick(['256', '257']) : number(65535),
          rand() < 0.9 ? '3' : number(255),
          alg(),
          written64(),
        ].join(' ');
    }
    if (rand() < 0.05)
      data = data
        .split(' ')
        .slice(0, -1 - int(3))
        .join(' ');
    if (rand() < 0.05) data = `${data} "quoted"`;
    if (rand() < 0.04) data = pick(['\\#', '\\# 0', '\\# 2 0102', '\\#.example.com.']);
    return [type, data];
  };
  return record;
}

/** The types bit maps are generated of, by code (the order signers write them in). */
const TYPE_CODES: Record<string, number> = {
  A: 1,
  NS: 2,
  SOA: 6,
  MX: 15,
  TXT: 16,
  AAAA: 28,
  RRSIG: 46,
  NSEC: 47,
  DNSKEY: 48,
  NSEC3PARAM: 51,
  CAA: 257,
  TYPE1234: 1234,
  TYPE65534: 65534,
};

/** The zone parser's reading (lean where it can) and the codecs', side by side. */
describe('engine/dns rdata: the lean DNSSEC readers agree with the codecs', () => {
  it(`${CASES} generated records of RRSIG, NSEC, NSEC3, DS, CDS, DNSKEY and CDNSKEY (seed ${SEED})`, () => {
    const record = generator(SEED);
    let textless = 0;
    let refused = 0;
    const seen = new Set<string>();
    for (let i = 0; i < CASES; i++) {
      const [type, data] = record();
      const both = bothWays(type, data);
      assert.deepEqual(both.lean, both.codecs, `${type} ${data}`);
      if (both.textless) textless++;
      seen.add(`${type} ${both.textless ? 'lean' : 'codecs'}`);
      if ('code' in both.codecs) refused++;
    }
    // both sides of the lean readers are exercised: taken, and left to the codecs
    assert.ok(textless > CASES / 4, `lean readers took ${textless} of ${CASES}`);
    assert.ok(refused > CASES / 10, `${refused} of ${CASES} refused`);
    assert.equal(seen.size, 14, [...seen].sort().join(', ')); // each type both ways
  });

  it('the forms dnssec-signzone writes are read without making their text', () => {
    const plain: [string, string][] = [
      [
        'RRSIG',
        'NSEC3 13 2 86400 20261227080245 20261127080245 39333 . MXirR0tBUIaEmMMFiFKq3DoeiV3XF7650RFb phpDubg1dS99NX2mgZKLEpotBUTE/1788mjd lvuc/Es7fFIoUQ==',
      ],
      ['NSEC', 'tld1. NS DS RRSIG NSEC'],
      ['NSEC3', '1 0 0 - 0K7NIEEQ4U1TNL0H1F5LE6JUBJ1F0J6E NS DS RRSIG'],
      ['DS', '31589 8 2 2D3D0C2C5B3EEF9AC0D8FB3B1D59E3ECA2E9B71E7D2E6E2B8F8E1C2B3A4D5E6F'],
      [
        'DNSKEY',
        '257 3 13 i64EcDp/rxfwUDPllyXO5Q8cOrSAkKdpJcPQ gdf0J5SymhVIbiEf3cxER2WPSn8fbG2Hqy23 Wa03qoaVWS8Pmg==',
      ],
    ];
    for (const [type, data] of plain) {
      const both = bothWays(type, data);
      assert.deepEqual(both.lean, both.codecs, `${type} ${data}`);
      assert.equal(both.textless, true, `${type} ${data}`);
    }
  });

  it('base64 cut anywhere, padded or not, set padding bits, pads out of place: as the codecs', () => {
    const keys = [
      'AAAA',
      'AwEA AcPk 3g==',
      'AwEAAcPk3g ==',
      'AwEAAcPk3g= =',
      'AB==',
      'ABC=',
      'AA==AAAA',
      'AA== AAAA',
      'AAA= =',
      'AAA ===',
      'AAAAA===',
      '====',
      'A-_B',
      'AAA\u00e9',
      '+/+/ +/8=',
    ];
    for (const key of keys) {
      for (const [type, data] of [
        ['DNSKEY', `257 3 13 ${key}`],
        ['RRSIG', `A 13 2 3600 20261227080245 20261127080245 39333 . ${key}`],
      ]) {
        const both = bothWays(type, data);
        assert.deepEqual(both.lean, both.codecs, data);
      }
    }
  });

  it('RFC 3597 data of these types is the codecs’, the lean readers never take it', () => {
    for (const type of ['RRSIG', 'NSEC', 'NSEC3', 'DS', 'CDS', 'DNSKEY', 'CDNSKEY']) {
      for (const data of ['\\#', '\\# 0', '\\# 2 0102', '\\# 5 0000030000']) {
        const both = bothWays(type, data);
        assert.deepEqual(both.lean, both.codecs, `${type} ${data}`);
        assert.equal(both.textless, false, `${type} ${data}`);
      }
    }
  });

  it('isBase32Hex takes what fromBase32Hex decodes, and nothing else', () => {
    const rand = seeded(SEED);
    const alphabet = '0123456789abcdefghijklmnopqrstuvABCDEFGHIJKLMNOPQRSTUVwxyz-=';
    for (let i = 0; i < 2000; i++) {
      const length = Math.floor(rand() * 40);
      let text = '';
      for (let k = 0; k < length; k++) text += alphabet[Math.floor(rand() * alphabet.length)];
      if (rand() < 0.5) text = toBase32Hex(Buffer.from(text));
      assert.equal(isBase32Hex(text), fromBase32Hex(text) !== undefined, text);
    }
  });
});
