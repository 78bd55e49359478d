// The hand-read A and AAAA addresses must accept exactly what node:net accepts and give the
// octets and text node's inet_ntop gives: checked against them on hand-picked and on seeded
// random near-addresses (every group count, "::" anywhere, odd digits and separators).
import assert from 'node:assert/strict';
import { isIPv4, isIPv6, SocketAddress } from 'node:net';
import ipaddr from 'ipaddr.js';
import { readIPv4, readIPv6 } from '../../../../src/engine/dns/rdata/addresses';
import { seeded } from '../../../support/prng';

function libraryIPv4(text: string): number[] | undefined {
  return isIPv4(text) ? text.split('.').map(Number) : undefined;
}

/**
 * The reference: node's own inet_ntop (libuv's, the BSD form BIND prints: RFC 5952 with an IPv4
 * tail for ::ffff:0:0/96 and ::/96), and the octets of that text (its IPv4 tail as two hex
 * groups, since ipaddr.js reads "::1.2.3.4" as IPv4-mapped).
 */
function libraryIPv6(text: string): { octets: number[]; text: string } | undefined {
  if (!isIPv6(text) || text.includes('%')) return undefined;
  const canonical = new SocketAddress({ address: text, family: 'ipv6' }).address;
  const hex = canonical.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_, a, b, c, d) =>
    [(Number(a) << 8) | Number(b), (Number(c) << 8) | Number(d)]
      .map((g) => g.toString(16))
      .join(':'),
  );
  return { octets: ipaddr.IPv6.parse(hex).toByteArray(), text: canonical };
}

function oursIPv4(text: string): number[] | undefined {
  const out = new Uint8Array(6).fill(0xee);
  if (!readIPv4(text, out, 1)) return undefined;
  assert.equal(out[0], 0xee, 'writes nothing before its place');
  assert.equal(out[5], 0xee, 'writes nothing after its place');
  return [...out.subarray(1, 5)];
}

function oursIPv6(text: string): { octets: number[]; text: string } | undefined {
  const out = new Uint8Array(18).fill(0xee);
  const canonical = readIPv6(text, out, 1);
  if (canonical === undefined) return undefined;
  assert.equal(out[0], 0xee, 'writes nothing before its place');
  assert.equal(out[17], 0xee, 'writes nothing after its place');
  return { octets: [...out.subarray(1, 17)], text: canonical };
}

const IPV4_CASES = [
  '192.0.2.1',
  '0.0.0.0',
  '255.255.255.255',
  '256.1.1.1',
  '1.2.3.256',
  '192.0.2.010',
  '01.2.3.4',
  '1.2.3',
  '1.2.3.4.5',
  '1..2.3',
  '1.2.3.',
  '.1.2.3',
  '1.2.3.4 ',
  '1.2.3.a',
  '1234.1.1.1',
  '',
  '٣.1.1.1',
];

const IPV6_CASES = [
  '::',
  '::1',
  '1::',
  '2001:db8::1',
  '2001:DB8::1',
  '2001:0db8:0000:0000:0000:0000:0000:0001',
  '1:2:3:4:5:6:7:8',
  '1:2:3:4:5:6:7::',
  '::2:3:4:5:6:7:8',
  '1::3:4:5:6:7:8',
  '1:0:0:2:0:0:0:3',
  '1:0:0:2:0:0:3:4',
  '0:0:1:0:0:1:0:0',
  '1:0:2:0:3:0:4:0',
  '1:2:3:4:5:6:7:8:9',
  '1::2::3',
  ':::',
  ':1::',
  '1:',
  ':1',
  '1::2:3:4:5:6:7:8',
  '00001::',
  '12345::',
  '::ffff:192.0.2.1',
  '1:2:3:4:5:6:1.2.3.4',
  '::1.2.3',
  'fe80::1%eth0',
  '2001:db8::g1',
  '',
  ':',
];

describe('engine/zone addresses', () => {
  it('reads IPv4 addresses as node:net does, leading zeros refused', () => {
    for (const text of IPV4_CASES) assert.deepEqual(oursIPv4(text), libraryIPv4(text), text);
  });

  it('reads IPv6 addresses as node:net and ipaddr.js do, zone indexes refused', () => {
    for (const text of IPV6_CASES) assert.deepEqual(oursIPv6(text), libraryIPv6(text), text);
  });

  it('agrees with node:net and ipaddr.js on seeded random near-addresses', () => {
    const rand = seeded(5952);
    const int = (n: number) => Math.floor(rand() * n);
    const pieces = [
      '0',
      '00',
      '000',
      '0000',
      '1',
      'a',
      'F',
      'ffff',
      'db8',
      '12345',
      'g',
      '',
      '1.2.3.4',
    ];
    let accepted = 0;
    for (let i = 0; i < 20000; i++) {
      const groups: string[] = [];
      const count = 1 + int(9);
      for (let k = 0; k < count; k++)
        groups.push(rand() < 0.6 ? int(0x10000).toString(16) : pieces[int(pieces.length)]);
      let text = groups.join(':');
      if (rand() < 0.6) {
        const at = int(text.length + 1);
        text = `${text.slice(0, at)}${rand() < 0.9 ? '::' : ':::'}${text.slice(at)}`;
      }
      if (rand() < 0.1) text = text.toUpperCase();
      const expected = libraryIPv6(text);
      if (expected !== undefined) accepted++;
      assert.deepEqual(oursIPv6(text), expected, text);
      const quad = Array.from({ length: 3 + int(3) }, () =>
        String(int(300)).padStart(1 + int(2), '0'),
      );
      assert.deepEqual(oursIPv4(quad.join('.')), libraryIPv4(quad.join('.')), quad.join('.'));
    }
    // the generator must reach both sides of the line
    assert.ok(accepted > 2000 && accepted < 18000, `${accepted} of 20000 accepted`);
  });
});
