import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { checkZone, guessOrigin, ZoneSession } from '../../../../src/engine/zone/index';
import { parseName } from '../../../../src/engine/dns/names';
import { parseTtl } from '../../../../src/engine/dns/rdata/ttl';
import { seeded } from '../../../support/prng';

const HEAD =
  '$TTL 3600\n@ IN SOA ns1 hostmaster 1 3600 600 86400 300\n@ IN NS ns1\nns1 IN A 192.0.2.1\n';

function load(body: string, origin = 'example.com.') {
  const session = new ZoneSession(HEAD + body, { origin });
  return { records: session.records(), problems: session.problems() };
}

function codes(body: string): string[] {
  return load(body).problems.map((p) => `${p.range.line + 1}:${p.code}`);
}

describe('engine/zone parser', () => {
  it('reads $ORIGIN, @, relative and absolute names, omitted owner, TTL and class', () => {
    const { records, problems } = load(
      '$ORIGIN sub.example.com.\nwww 300 A 192.0.2.2\n   IN 600 AAAA 2001:DB8::1\n@ MX 10 mail.example.net.\n',
    );
    assert.deepEqual(problems, []);
    const www = records.filter((r) => r.key === 'www.sub.example.com.');
    assert.deepEqual(
      www.map((r) => [r.type, r.ttl, r.data]),
      [
        ['A', 300, '192.0.2.2'],
        ['AAAA', 600, '2001:db8::1'],
      ],
    );
    const mx = records.find((r) => r.type === 'MX')!;
    assert.equal(mx.owner, 'sub.example.com.');
    assert.equal(mx.ttl, 3600, 'the $TTL, not the last explicit TTL');
    assert.equal(mx.data, '10 mail.example.net.');
  });

  it('reads a TTL as seconds or as units, refusing anything else and values over 2^32 - 1', () => {
    const cases: [string, number | undefined][] = [
      ['0', 0],
      ['4294967295', 4294967295],
      ['4294967296', undefined],
      ['99999999999999999999999', undefined],
      ['1h30m', 5400],
      ['1W2d3H4m5S', 788645],
      ['2h2h', 14400],
      ['1h30', undefined],
      ['h1', undefined],
      ['1x', undefined],
      ['1 h', undefined],
      ['', undefined],
      ['7101w', 4294684800],
      ['7102w', undefined],
    ];
    for (const [text, seconds] of cases) assert.equal(parseTtl(text), seconds, text);
  });

  it('reads TTL units and uses the previous TTL when there is no $TTL', () => {
    const s = new ZoneSession(
      '@ 1h30m IN SOA ns1 hm 1 2 3 4 5\n@ NS ns1\nns1 1W A 192.0.2.1\n  A 192.0.2.2\n',
      { origin: 'example.com' },
    );
    assert.deepEqual(s.problems(), []);
    assert.deepEqual(
      s.records().map((r) => r.ttl),
      [5400, 5400, 604800, 604800],
    );
  });

  it('joins lines in parentheses and keeps comments out', () => {
    const { records, problems } = load(
      'www IN SOA ( ns1 ; primary\n  hm ; contact\n  7 1h 10m 1d\n  300 ) ; end\n',
    );
    const soa = records.find((r) => r.key === 'www.example.com.')!;
    assert.equal(soa.data, 'ns1.example.com. hm.example.com. 7 3600 600 86400 300');
    assert.deepEqual(soa.range, { line: 4, start: 0, endLine: 7, end: 7 });
    assert.deepEqual(
      problems.map((p) => p.code),
      ['soa-not-at-apex'],
    );
  });

  it('reads quoted strings with \\" and \\DDD escapes; a ; inside quotes is text', () => {
    const { records } = load('t TXT "a \\"quoted\\" ; word" \\065bc "\\255"\n');
    const txt = records.find((r) => r.type === 'TXT')!;
    assert.equal(txt.data, '"a \\"quoted\\" ; word" "Abc" "\\255"');
  });

  it('reads the DNSSEC, DANE and service types, and RFC 3597 data equal to the typed form', () => {
    const { records, problems } = load(
      [
        'k DNSKEY 257 3 13 mdsswUyr3DPW132mOi8V9xESWE8jTo0dxCjjnopKl+GqJxpVXckHAeF+KkxLbxILfDLUT0rAK9iUzy1L53eKGQ==',
        'k DS 60485 13 2 D4B7D520E7BB5F0F67674A0CCEB1E3E0614B93C4F9E99B8383F6A1E4469DA50A',
        'k CDS 0 0 0 00',
        'k CDNSKEY 0 3 0 AA==',
        'k RRSIG A 13 3 3600 20260101000000 20251201000000 12345 example.com. AAAA',
        'k NSEC www.example.com. A NS SOA RRSIG NSEC DNSKEY TYPE65534',
        '2vptu5timamqttgl4luu9kg21e0aor3s NSEC3 1 0 10 AABBCCDD 2VPTU5TIMAMQTTGL4LUU9KG21E0AOR3S A RRSIG',
        '@ NSEC3PARAM 1 0 10 -',
        '_443._tcp TLSA 3 1 1 0123456789ABCDEF',
        'k SSHFP 4 2 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
        'n NAPTR 100 10 "u" "E2U+sip" "!^.*$!sip:info@example.com!" .',
        's SVCB 1 . alpn=h2,h3 port=8443 ipv4hint=192.0.2.1',
        's HTTPS 0 www.example.com.',
        'd DNAME example.net.',
        'l LOC 52 22 23.000 N 4 53 32.000 E -2.00m 0.00m 10000m 10m',
        'r RP hm.example.com. t.example.com.',
        'r HINFO "PC" "Linux"',
        '_u._tcp URI 10 1 "https://example.com/"',
        'c CAA 0 issue "ca.example.net"',
        'g TYPE1 \\# 4 C0000201',
        'g A 192.0.2.1',
        'u TYPE65280 \\# 3 abcdef',
        '',
      ].join('\n'),
    );
    assert.deepEqual(
      problems.map((p) => `${p.range.line + 1}:${p.code}`),
      // the DS is made-up data, so it names no key of the DNSKEY beside it (issue 14's check)
      ['6:ds-without-dnskey', '25:duplicate-record'],
      'TYPE1 \\# 4 C0000201 is the same record as A 192.0.2.1',
    );
    assert.ok(records.some((r) => r.type === 'TYPE65280' && r.wire === 'abcdef'));
    assert.equal(records.find((r) => r.type === 'LOC')!.wire.length, 32);
  });

  it('holds record data to the rules BIND holds it to across fields and in RFC 3597 form', () => {
    const { problems } = load(
      [
        // RFC 4035 section 5.3.1: labels (2) fewer than the signer's (3)
        'k RRSIG A 13 2 3600 20300101000000 20291201000000 12345 a.b.example. AAAA',
        // RFC 4034 section 3.2: the original TTL is a decimal number, not units
        'k RRSIG A 13 3 1h 20300101000000 20291201000000 12345 example. AAAA',
        // RFC 3597 section 5: data of a known type must read as that type
        'g A \\# 3 C00002',
        'g MX \\# 3 000a05',
        // and its rules hold in that form too: a SHA-256 digest (type 2) of 2 octets
        'k DS \\# 6 30390d02abcd',
        'ok A \\# 4 C0000201',
        // RFC 3403 section 4.1: flags are letters and digits; a regexp has three delimiters,
        // "i" its only flag, back-references to groups it has
        'n NAPTR 1 1 "U+" "E2U+sip" "" .',
        'n NAPTR 1 1 "U" "E2U+sip" "!^.*$!sip:x!" .',
        'n NAPTR 1 1 "U" "E2U+sip" "!^.*$!sip:x!g" .',
        'n NAPTR 1 1 "U" "E2U+sip" "!^.*$!\\\\1!" .',
        'n NAPTR 1 1 "U" "E2U+sip" "!^(.*)$!\\\\1!i" .',
        // RFC 1183 section 3.1: a PSDN address is decimal digits
        'x X25 "31106a"',
        // RFC 2535 section 3.1.2: flags 0xC000 carry no key, others one
        'k KEY 49152 3 8',
        'k KEY 49152 3 8 AAAA',
        'k KEY 256 3 8',
        // SIG's times are dates (BIND reads no seconds there)
        'k SIG A 13 3 3600 1893456000 20291201000000 12345 example.com. AAAA',
        // MD and MF: obsolete, refused by BIND (RFC 973)
        'm MD host.example.com.',
        // RFC 9460 sections 7.1.1 and 8, RFC 9461 section 5
        's SVCB 1 . no-default-alpn',
        's SVCB 1 . mandatory=port',
        's SVCB 1 . port=53 mandatory=port,port',
        's SVCB 1 . dohpath=/x',
        's SVCB 1 . alpn=h2 no-default-alpn dohpath=/q{?dns} ohttp mandatory=alpn',
        // RFC 4648 section 6: not a whole base32hex encoding; RFC 5155: SHA-1 hashes are 20 octets
        'h NSEC3 1 0 1 - 01 A',
        'h NSEC3 1 0 1 - 00000000000000000000000000 A',
        '',
      ].join('\n'),
    );
    assert.deepEqual(
      problems.map((p) => `${p.range.line + 1}:${p.code}`),
      [
        '5:bad-rrsig',
        '6:bad-number',
        '7:bad-generic',
        '8:bad-generic',
        '9:bad-digest',
        '11:bad-naptr',
        '13:bad-naptr',
        '14:bad-naptr',
        '16:bad-x25',
        '18:extra-rdata',
        '19:missing-rdata',
        '20:bad-time',
        '21:obsolete-type',
        '22:bad-svcparam',
        '23:bad-svcparam',
        '24:bad-svcparam',
        '25:bad-svcparam',
        '27:bad-base32',
        '28:bad-base32',
      ],
    );
  });

  it('reads a relative name exactly as the absolute name it stands for', () => {
    // Relative names are measured apart from their origin; the answer, failures included,
    // must be the one the completed name gets.
    const rand = seeded(1035);
    const pieces = [
      'a',
      'B',
      '.',
      '..',
      'é',
      '\\.',
      '\\065',
      '\\300',
      'x'.repeat(63),
      'y'.repeat(64),
      'z'.repeat(40),
    ];
    const origins = [
      'example.com.',
      'Example.COM.',
      'a..b.',
      'ü.example.',
      `${'o'.repeat(64)}.`,
      `${'p'.repeat(60)}.${'q'.repeat(60)}.`,
    ];
    for (let i = 0; i < 5000; i++) {
      let text = '';
      for (let k = 1 + Math.floor(rand() * 6); k > 0; k--)
        text += pieces[Math.floor(rand() * pieces.length)];
      if (text.endsWith('.')) continue;
      for (const origin of origins) {
        assert.deepEqual(
          parseName(text, origin),
          parseName(`${text}.${origin}`, undefined),
          `${text} in ${origin}`,
        );
      }
    }
  });

  it('writes the wire form of names and addresses as a server sends them', () => {
    const { records, problems } = load(
      [
        // RFC 7505 null MX: the root name is one zero octet, as in a transfer of the record
        'nomail MX 0 .',
        'Mail MX 10 Mail.Example.NET.',
        'v6 AAAA 2001:DB8:0:0:1::1',
        'v4 AAAA ::ffff:192.0.2.1',
        't TXT "plain" "a \\"q\\" \\059"',
        '',
      ].join('\n'),
    );
    assert.deepEqual(problems, []);
    const wire = (key: string) => records.find((r) => r.key === `${key}.example.com.`)!;
    assert.equal(wire('nomail').wire, '000000');
    assert.equal(wire('mail').wire, '000a046d61696c076578616d706c65036e657400');
    assert.equal(wire('v6').wire, '20010db8000000000001000000000001');
    assert.equal(wire('v6').data, '2001:db8::1:0:0:1');
    assert.equal(wire('v4').wire, '00000000000000000000ffffc0000201');
    // RFC 5952 section 5: an IPv4-mapped address ends in dotted decimal (as BIND prints it)
    assert.equal(wire('v4').data, '::ffff:192.0.2.1');
    assert.equal(wire('t').wire, '05706c61696e076120227122203b');
    assert.equal(wire('t').data, '"plain" "a \\"q\\" ;"');
  });

  it('recovers: every bad line is reported and the good lines are still loaded', () => {
    const { records, problems } = load(
      'a A 192.0.2.300\nb A 192.0.2.2\nc AAAA zz\nd MX 10\ne BOGUS x\nf A 192.0.2.3 extra\ng A 192.0.2.4\n',
    );
    assert.deepEqual(
      problems.map((p) => `${p.range.line + 1}:${p.code}`),
      ['5:bad-address', '7:bad-address', '8:missing-rdata', '9:unknown-type', '10:extra-rdata'],
    );
    assert.deepEqual(
      records.filter((r) => r.type === 'A' && r.key !== 'ns1.example.com.').map((r) => r.key),
      ['b.example.com.', 'g.example.com.'],
    );
  });

  it('puts each problem on the exact token', () => {
    const [p] = load('www   IN  A   192.0.2.999\n').problems;
    assert.deepEqual(p.range, { line: 4, start: 14, end: 25 });
    const [q] = load('x CAA 256 issue "ca"\n').problems;
    assert.equal(q.code, 'bad-caa-flags');
    assert.deepEqual(q.range, { line: 4, start: 6, end: 9 });
  });

  it('reports unterminated strings, unbalanced parentheses and bad directives', () => {
    assert.deepEqual(codes('a TXT "open\nb A 192.0.2.1\n'), ['5:syntax']);
    assert.deepEqual(codes('a SOA ( ns1 hm 1 2 3 4 5\n'), ['5:syntax']);
    assert.deepEqual(codes('$BOGUS x\n$TTL abc\n$ORIGIN\n'), [
      '5:bad-directive',
      '6:bad-ttl',
      '7:bad-directive',
    ]);
  });

  it('reports names and strings over the limits, with a split fix for TXT', () => {
    const long = 'a'.repeat(64);
    assert.deepEqual(codes(`${long} A 192.0.2.1\n`), ['5:label-too-long']);
    const label = 'b'.repeat(60);
    assert.deepEqual(codes(`${label}.${label}.${label}.${label}.${label} A 192.0.2.1\n`), [
      '5:name-too-long',
    ]);
    const [p] = load(`t TXT "${'x'.repeat(300)}"\n`).problems;
    assert.equal(p.code, 'string-too-long');
    assert.equal(p.fix!.replacement, `"${'x'.repeat(255)}" "${'x'.repeat(45)}"`);
  });

  it('expands $GENERATE with modifiers', () => {
    const { records } = load('$GENERATE 1-3/2 host-${10,3,x} A 192.0.2.$\n');
    assert.deepEqual(
      records.filter((r) => r.key.startsWith('host-')).map((r) => `${r.key} ${r.data}`),
      ['host-00b.example.com. 192.0.2.1', 'host-00d.example.com. 192.0.2.3'],
    );
  });

  it('reads $INCLUDE relative to the file, with its own origin, problems named by file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hostlens-zone-'));
    writeFileSync(join(dir, 'hosts.inc'), 'www A 192.0.2.7\nbad A 1.2\n');
    const main = join(dir, 'example.com.zone');
    const text = `${HEAD}$INCLUDE hosts.inc sub\nafter A 192.0.2.8\n`;
    const session = new ZoneSession(text, {
      origin: 'example.com.',
      file: main,
      readInclude: (path, from) => {
        const full = resolve(dirname(from!), path);
        return { path: full, text: readFileSync(full, 'utf8') };
      },
    });
    const keys = session.records().map((r) => r.key);
    assert.ok(keys.includes('www.sub.example.com.'));
    assert.ok(keys.includes('after.example.com.'), 'the origin comes back after the include');
    const [p] = session.problems();
    assert.equal(p.file, join(dir, 'hosts.inc'));
    assert.equal(p.range.line, 1);
    assert.deepEqual(
      checkZone(`${HEAD}$INCLUDE missing.inc\n`, {
        origin: 'example.com.',
        file: main,
        readInclude: () => {
          throw new Error('ENOENT');
        },
      }).map((x) => x.code),
      ['include-failed'],
    );
  });

  it('guesses the origin from $ORIGIN, an absolute SOA owner or the file name', () => {
    assert.equal(
      guessOrigin('$TTL 1h\n$ORIGIN example.org.\n@ SOA a b 1 2 3 4 5\n'),
      'example.org.',
    );
    assert.equal(guessOrigin('example.net. 3600 IN SOA a b 1 2 3 4 5\n'), 'example.net.');
    assert.equal(guessOrigin('@ SOA a b 1 2 3 4 5\n', '/zones/db.example.com'), 'example.com.');
    assert.equal(guessOrigin('@ SOA a b 1 2 3 4 5\n', '/zones/example.com.zone'), 'example.com.');
    assert.equal(guessOrigin('@ SOA a b 1 2 3 4 5\n', '/zones/zonefile'), undefined);
  });
});
