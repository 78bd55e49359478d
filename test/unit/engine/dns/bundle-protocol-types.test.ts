// CLA (263) and IPN (264), the Bundle Protocol's types (IANA, 2024-07-25, after
// draft-johnson-dns-ipn-cla-07). Neither BIND 9.18 nor Knot 3.2 reads them (the types
// differential checks BIND still calls them unknown), so they are held to the registration as
// NLnet Labs' simdzone reads it: CLA's data is TXT's (character-strings), IPN's a 64-bit node
// number written in decimal or as its two 32-bit halves joined by a dot.
import assert from 'node:assert/strict';
import { recordJson } from '../../../../src/engine/dns/rdata/json';
import { parseRdata, printRdata } from '../../../../src/engine/dns/rdata/text';
import { TYPES, typeCode, typeName } from '../../../../src/engine/dns/rdata/types';
import { loadZone, printRecords } from '../../../../src/engine/zone/index';
import { tokenizeLine } from '../../../../src/engine/zone/lexer';

function parse(type: string, text: string) {
  return parseRdata(type, tokenizeLine(text).tokens, 'example.');
}

function read(type: string, text: string): string {
  const parsed = parse(type, text);
  return 'code' in parsed ? `error ${parsed.code}` : `${parsed.data} | ${parsed.wire}`;
}

/** The data printed back from its wire form, and the wire that reading the print gives. */
function roundTrip(type: string, wireHex: string): { text: string; wire: string } {
  const wire = Buffer.from(wireHex, 'hex');
  const printed = printRdata(wire, 0, wire.length, TYPES[type], true);
  const again = parse(type, printed.text);
  assert.ok(!('code' in again), printed.text);
  return { text: printed.text, wire: again.wire };
}

describe('engine/dns CLA and IPN (Bundle Protocol, IANA 263 and 264)', () => {
  it('knows the mnemonics and their numbers', () => {
    assert.equal(typeCode('CLA'), 263);
    assert.equal(typeCode('ipn'), 264);
    assert.equal(typeName(263), 'CLA');
    assert.equal(typeName(264), 'IPN');
  });

  it('reads IPN in both forms, to eight octets in network order', () => {
    assert.equal(read('IPN', '1'), '1 | 0000000000000001');
    assert.equal(read('IPN', '977000.1'), '4196183048192001 | 000ee86800000001');
    assert.equal(read('IPN', '0.0'), '0 | 0000000000000000');
    assert.equal(read('IPN', '18446744073709551615'), '18446744073709551615 | ffffffffffffffff');
    assert.equal(read('IPN', '4294967295.4294967295'), '18446744073709551615 | ffffffffffffffff');
  });

  it('refuses an IPN that is no 64-bit number, each with its code', () => {
    const cases: [string, string][] = [
      ['18446744073709551616', 'bad-number'],
      ['4294967296.0', 'bad-number'],
      ['1.4294967296', 'bad-number'],
      ['1.2.3', 'bad-number'],
      ['-1', 'bad-number'],
      ['0x10', 'bad-number'],
      ['.1', 'bad-number'],
      ['1.', 'bad-number'],
      ['', 'missing-rdata'],
      ['1 2', 'extra-rdata'],
      ['\\# 7 00000000000001', 'bad-generic'],
    ];
    for (const [text, code] of cases) assert.equal(read('IPN', text), `error ${code}`, text);
  });

  it('reads CLA as character-strings, quoted or not, and refuses one over 255 octets', () => {
    assert.equal(read('CLA', '"TCPCLv4"'), '"TCPCLv4" | 07544350434c7634');
    assert.equal(read('CLA', 'UDPCL'), '"UDPCL" | 05554450434c');
    assert.equal(read('CLA', '"LTP" "a b"'), '"LTP" "a b" | 034c545003612062');
    assert.equal(read('CLA', ''), 'error missing-rdata');
    assert.equal(read('CLA', `"${'x'.repeat(256)}"`), 'error string-too-long');
  });

  it('prints from the wire what it reads, and the RFC 3597 form is the same record', () => {
    for (const [type, wire] of [
      ['IPN', '000ee86800000001'],
      ['IPN', 'ffffffffffffffff'],
      ['CLA', '07544350434c7634'],
      ['CLA', '03225c0a00'],
    ] as const) {
      const { text, wire: again } = roundTrip(type, wire);
      assert.equal(again, wire, `${type} ${text}`);
      const generic = parse(type, `\\# ${wire.length / 2} ${wire}`);
      assert.ok(!('code' in generic));
      assert.deepEqual([generic.wire, generic.data], [wire, text]);
    }
    assert.equal(roundTrip('CLA', '03225c0a00').text, '"\\"\\\\\\010" ""');
  });

  it('gives IPN in JSON as decimal text (a JavaScript number cannot hold 64 bits)', () => {
    const wire = Buffer.from('ffffffffffffffff', 'hex');
    assert.deepEqual(recordJson(wire, 0, wire.length, 'IPN'), {
      type: 'IPN',
      node: '18446744073709551615',
    });
  });

  it('loads and prints them in a zone, one a line', () => {
    const zone = loadZone(
      [
        '$ORIGIN example.',
        '@ 300 SOA ns hm 1 2 3 4 5',
        '@ 300 NS ns',
        'ns 300 A 192.0.2.1',
        'node 300 IPN 977000.1',
        'node 300 CLA "TCPCLv4"',
      ].join('\n'),
      { origin: 'example.' },
    );
    assert.deepEqual(
      zone.problems.filter((p) => p.severity === 'error'),
      [],
    );
    const lines = printRecords(zone.records);
    assert.ok(lines.includes('node.example. 300 IN CLA "TCPCLv4"'), lines.join('\n'));
    assert.ok(lines.includes('node.example. 300 IN IPN 4196183048192001'), lines.join('\n'));
  });
});
