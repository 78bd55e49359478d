// The rules of issue 27, each on the line that breaks it and beside a case that passes: where
// BIND loads what HostLens refused, where BIND refuses what HostLens loaded, and the records BIND
// makes. The differential suite (differential.test.ts) holds the same rules against
// named-checkzone on generated zones; these say what each rule is, with its RFC.
import assert from 'node:assert/strict';
import { loadZone, printRecords, ZoneSession } from '../../../../src/engine/zone/index';
import { MAX_RRSET_OCTETS } from '../../../../src/engine/zone/owner-rules';

const HEAD = '$TTL 300\n@ SOA ns1 hm 1 3600 600 86400 300\n@ NS ns1\nns1 A 192.0.2.1\n';
const ORIGIN = 'example.com.';
const KEY =
  'mdsswUyr3DPW132mOi8V9xESWE8jTo0dxCjjnopKl+GqJxpVXckHAeF+KkxLbxILfDLUT0rAK9iUzy1L53eKGQ==';
const DIGEST = 'D4B7D520E7BB5F0F67674A0CCEB1E3E0614B93C4F9E99B8383F6A1E4469DA50A';

/** "line:code" of the errors of HEAD + body (lines 1-based; the body starts on line 5). */
function errors(body: string): string[] {
  return problems(body, 'error');
}

function problems(body: string, severity: 'error' | 'warning'): string[] {
  return new ZoneSession(HEAD + body, { origin: ORIGIN })
    .problems()
    .filter((p) => p.severity === severity)
    .map((p) => `${p.range.line + 1}:${p.code}`);
}

/** The records as zone-check --print writes them, blanks made single. */
function lines(text: string): string[] {
  return printRecords(loadZone(text, { origin: ORIGIN }).records).map((l) =>
    l.replace(/\s+/g, ' '),
  );
}

describe('engine/zone rules of issue 27: BIND loads, HostLens refused', () => {
  it('an NS target found through a wildcard has its address (RFC 4592 section 3.3.1)', () => {
    assert.deepEqual(errors('@ NS ns.sub\n*.sub A 192.0.2.5\n'), []);
    assert.deepEqual(errors('@ NS a.b.sub\n*.sub AAAA 2001:db8::5\n'), []);
    // the wildcard has no address, or the name exists (an empty non-terminal): no synthesis
    assert.deepEqual(errors('@ NS ns.sub\n*.sub TXT "x"\n'), ['5:missing-glue']);
    assert.deepEqual(errors('@ NS ns.sub\n*.sub A 192.0.2.5\nx.ns.sub A 192.0.2.6\n'), [
      '5:missing-glue',
    ]);
    // the closest encloser is b.sub, whose wildcard there is none of
    assert.deepEqual(errors('@ NS a.b.sub\n*.sub A 192.0.2.5\nc.b.sub A 192.0.2.6\n'), [
      '5:missing-glue',
    ]);
  });

  it('an NS target at or below another delegation: its address is the child zone’s', () => {
    assert.deepEqual(errors('@ NS ns2.d\nd NS ns1.d\nns1.d A 192.0.2.6\n'), []);
    assert.deepEqual(errors('@ NS d\nd NS ns1.d\nns1.d A 192.0.2.6\n'), []);
    // a delegation's own in-zone nameserver still wants glue (a warning, as BIND has it)
    assert.deepEqual(problems('d NS ns1.d\n', 'warning'), ['5:missing-glue']);
  });

  it('a wildcard added in an editor clears the missing glue it answers for', () => {
    const session = new ZoneSession(`${HEAD}@ NS ns.sub\n\n`, { origin: ORIGIN });
    assert.deepEqual(
      session.problems().map((p) => p.code),
      ['missing-glue'],
    );
    session.edit(5, 6, '*.sub A 192.0.2.5');
    assert.deepEqual(session.problems(), []);
  });

  it('CLASS1 is the class IN (RFC 3597 section 5); CLASS3 is CH, not the zone’s', () => {
    assert.deepEqual(errors('x CLASS1 A 192.0.2.7\ny 300 class1 TXT "a"\n'), []);
    assert.deepEqual(errors('z CLASS3 A 192.0.2.7\n'), ['5:bad-class']);
  });

  it('$GENERATE writes the nibble formats n and N, as BIND does', () => {
    // owners keep their case; names in PTR data are lower case in canonical form
    const text = `${HEAD}$GENERATE 10-11 ${'$'}{0,3,N}.rev PTR h${'$'}{0,4,n}ex\n`;
    assert.deepEqual(
      lines(text).filter((l) => l.includes('PTR')),
      [
        'A.0.rev.example.com. 300 IN PTR ha.0.ex.example.com.',
        'B.0.rev.example.com. 300 IN PTR hb.0.ex.example.com.',
      ],
    );
    // a width that ends on a dot leaves a trailing dot: here an empty label
    assert.deepEqual(errors(`$GENERATE 1-2 h$ PTR ${'$'}{0,2,n}.x\n`), ['5:empty-label']);
    assert.deepEqual(errors(`$GENERATE 1-2 h$ PTR ${'$'}{0,3,q}.x\n`), ['5:bad-generate']);
  });

  it('BIND’s $DATE: one YYYYMMDDHHMMSS time, read and checked, the TTLs left alone', () => {
    assert.deepEqual(errors('$DATE 20200101000000\na A 192.0.2.9\n'), []);
    assert.ok(
      lines(`${HEAD}$date 20251231235960\na A 192.0.2.9\n`).includes(
        'a.example.com. 300 IN A 192.0.2.9',
      ),
    );
    for (const bad of [
      '2020',
      '20201301000000',
      '20200230000000',
      '19691231235959',
      '21060207062816',
      '20200101000000 x',
      '',
    ]) {
      assert.deepEqual(errors(`$DATE ${bad}\n`), ['5:bad-directive'], bad);
    }
  });
});

describe('engine/zone rules of issue 27: BIND refuses, HostLens loaded', () => {
  it('the apex CDS and CDNSKEY name algorithms of its DNSKEY set (BIND; RFC 7344, 8078)', () => {
    const dnskey = `@ DNSKEY 257 3 13 ${KEY}\n`;
    // algorithm 13 is the key's: loads (a digest that matches no key is a warning)
    assert.deepEqual(errors(`${dnskey}@ CDS 60485 13 2 ${DIGEST}\n`), []);
    assert.deepEqual(errors(`${dnskey}@ CDS 60485 8 2 ${DIGEST}\n`), ['6:cds-without-dnskey']);
    assert.deepEqual(errors(`${dnskey}@ CDNSKEY 257 3 15 ${KEY}\n`), ['6:cdnskey-without-dnskey']);
    assert.deepEqual(errors(`@ CDS 60485 13 2 ${DIGEST}\n`), ['5:cds-without-dnskey']);
    // the delete forms stand alone
    assert.deepEqual(errors('@ CDS 0 0 0 00\n@ CDNSKEY 0 3 0 AA==\n'), []);
    assert.deepEqual(errors(`${dnskey}@ CDS 0 0 0 00\n@ CDS 60485 13 2 ${DIGEST}\n`), [
      '6:cds-without-dnskey',
      '7:cds-without-dnskey',
    ]);
    // below the apex it is the parent's side of a delegation: no such rule
    assert.deepEqual(errors(`sub CDS 60485 8 2 ${DIGEST}\n`), []);
  });

  it('a DS at the apex (RFC 4034 section 5, RFC 4035 section 2.4)', () => {
    assert.deepEqual(errors(`@ DS 60485 13 2 ${DIGEST}\n`), ['5:ds-at-apex']);
    assert.deepEqual(errors(`sub NS ns.example.net.\nsub DS 60485 13 2 ${DIGEST}\n`), []);
  });

  it('SvcParam value lists: no empty item (RFC 9460 appendix A.1), mandatory keys present (section 8)', () => {
    for (const alpn of ['abc,', ',abc', 'a,,b', '""']) {
      assert.deepEqual(errors(`s SVCB 1 . alpn=${alpn}\n`), ['5:bad-svcparam'], alpn);
    }
    assert.deepEqual(errors('s SVCB 1 . ipv4hint=192.0.2.1,\n'), ['5:bad-svcparam']);
    assert.deepEqual(errors('s SVCB 1 . mandatory=port alpn=h2\n'), ['5:bad-svcparam']);
    assert.deepEqual(errors('s SVCB 1 . mandatory=alpn,port alpn=h2 port=853\n'), []);
  });

  it('DNAME: one per name (RFC 6672 section 2.4); the zone’s nameservers not below one (2.3)', () => {
    assert.deepEqual(errors('d DNAME example.net.\nd DNAME example.org.\n'), ['6:multiple-dname']);
    assert.deepEqual(errors('@ NS ns.d\nd DNAME example.net.\nns.d A 192.0.2.3\n'), [
      '5:target-below-dname',
    ]);
    assert.deepEqual(errors('@ DNAME example.net.\n'), ['3:target-below-dname']);
    // other targets below a DNAME are reported, as BIND logs them, and load
    assert.deepEqual(errors('@ MX 1 mx.d\nc NS ns.d\nd DNAME example.net.\n'), []);
    assert.deepEqual(problems('@ MX 1 mx.d\nd DNAME example.net.\n', 'warning'), [
      '5:target-below-dname',
    ]);
  });

  it(`an RRset larger than BIND holds (${MAX_RRSET_OCTETS} octets with 2 per record)`, () => {
    const txt = (octets: number, fill: string) => {
      const strings: string[] = [];
      for (let left = octets; left > 0; left -= 256) {
        strings.push(`"${fill.repeat(Math.min(left, 256) - 1)}"`);
      }
      return `t TXT ${strings.join(' ')}\n`;
    };
    const fits = MAX_RRSET_OCTETS - 4;
    assert.deepEqual(errors(txt(fits / 2, 'a') + txt(fits / 2, 'b')), []);
    assert.deepEqual(errors(txt(fits / 2, 'a') + txt(fits / 2 + 1, 'b')), ['6:rrset-too-large']);
    // a duplicate is one record
    assert.deepEqual(errors(txt(fits / 2, 'a') + txt(fits / 2, 'a') + txt(fits / 2, 'b')), []);
  });

  it('RFC 3597 data longer than 65,535 octets, or not of its type’s length', () => {
    assert.deepEqual(errors(`g TYPE65282 \\# 65536 ${'00'.repeat(65536)}\n`), ['5:bad-generic']);
    assert.deepEqual(errors('g A \\# 5 c000020901\n'), ['5:bad-generic']);
  });

  it('an NSEC3 next hashed owner cut short of its hash length', () => {
    assert.deepEqual(
      errors('2vptu5timamqttgl4luu9kg21e0aor3s NSEC3 1 0 0 - 2VPTU5TIMAMQTTGL A\n'),
      ['5:bad-base32'],
    );
  });

  it('a meta or query type as data (RFC 6895 section 3.1)', () => {
    for (const code of [0, 41, 128, 251, 255]) {
      assert.deepEqual(errors(`m TYPE${code} \\# 0\n`), ['5:meta-type'], String(code));
    }
    assert.deepEqual(errors('m TYPE127 \\# 0\nm TYPE65535 \\# 0\n'), []);
  });

  it('NS records at a wildcard owner (RFC 4592 section 4.2)', () => {
    assert.deepEqual(errors('* NS ns1\n*.w NS ns1\n'), ['5:wildcard-ns', '6:wildcard-ns']);
    assert.deepEqual(errors('*.w A 192.0.2.1\n'), []);
  });

  it('an NSEC3 owner whose first label is not a hash in unpadded base32hex (BIND)', () => {
    const next = '2VPTU5TIMAMQTTGL4LUU9KG21E0AOR3S';
    for (const good of ['2vptu5timamqttgl4luu9kg21e0aor3s', '2VPTU5TI', '2vptu', '20']) {
      assert.deepEqual(errors(`${good} NSEC3 1 0 0 - ${next} A\n`), [], good);
    }
    // another letter, padding, a length no octets make, left-over bits that are not zero
    for (const bad of ['x', '2vptu5t=', '2vptu5', '2vptu5t', '2v', 'w2', 'y.2vptu5ti']) {
      assert.deepEqual(errors(`${bad} NSEC3 1 0 0 - ${next} A\n`), ['5:bad-nsec3-owner'], bad);
    }
  });
});

describe('engine/zone rules of issue 27: the records BIND makes', () => {
  it('alpn=h1\\\\,h2 is the one ALPN id "h1,h2" (RFC 9460 appendix A.1); h1\\,h2 is two', () => {
    const [one] = loadZone(`${HEAD}s SVCB 1 . alpn=h1\\\\,h2\n`, { origin: ORIGIN }).records.slice(
      -1,
    );
    assert.equal(one.wire, '000100000100060568312c6832');
    assert.equal(one.data, '1 . alpn="h1\\\\,h2"');
    const [two] = loadZone(`${HEAD}s SVCB 1 . alpn=h1\\,h2\n`, { origin: ORIGIN }).records.slice(
      -1,
    );
    assert.equal(two.wire, '00010000010006026831026832');
    assert.equal(two.data, '1 . alpn="h1,h2"');
  });

  it('no $TTL and an SOA without a TTL: the SOA minimum for every record without one, and a warning', () => {
    const text =
      '@ SOA ns1 hm 1 3600 600 86400 120\n@ NS ns1\nns1 600 A 192.0.2.1\nb A 192.0.2.2\n$TTL 100\nc A 192.0.2.3\n';
    assert.deepEqual(lines(text), [
      'example.com. 120 IN SOA ns1.example.com. hm.example.com. 1 3600 600 86400 120',
      'example.com. 120 IN NS ns1.example.com.',
      'b.example.com. 120 IN A 192.0.2.2',
      'c.example.com. 100 IN A 192.0.2.3',
      'ns1.example.com. 600 IN A 192.0.2.1',
    ]);
    const warnings = loadZone(text, { origin: ORIGIN }).problems;
    assert.deepEqual(
      warnings.map((p) => `${p.range.line + 1}:${p.code}:${p.severity}`),
      ['1:no-ttl:warning'],
    );
    assert.match(warnings[0].message, /SOA minimum 120/);
  });

  it('generic data of a known type is its canonical record: duplicates, targets, --print', () => {
    const body = [
      'm MX 10 Mail.example.com.',
      'm MX \\# 20 000a046d61696c076578616d706c6503636f6d00',
      'm2 TYPE15 \\# 20 000a046D61696C076578616D706C6503636F6D00',
      '@ NS \\# 17 036e7333076578616d706c6503636f6d00',
      '',
    ].join('\n');
    const session = new ZoneSession(HEAD + body, { origin: ORIGIN });
    assert.deepEqual(
      session.problems().map((p) => `${p.range.line + 1}:${p.code}`),
      // the NS written generically points at ns3, which has no address
      ['6:duplicate-record', '8:missing-glue'],
    );
    // one MX at m (the same record twice), printed as first written, as BIND keeps it
    assert.deepEqual(lines(HEAD + body), [
      'example.com. 300 IN SOA ns1.example.com. hm.example.com. 1 3600 600 86400 300',
      'example.com. 300 IN NS ns1.example.com.',
      'example.com. 300 IN NS ns3.example.com.',
      'm.example.com. 300 IN MX 10 Mail.example.com.',
      'm2.example.com. 300 IN MX 10 mail.example.com.',
      'ns1.example.com. 300 IN A 192.0.2.1',
    ]);
  });
});

describe('engine/zone rules of issue 27: kept as the text changes', () => {
  it('a DNAME or wildcard added or removed re-checks the targets below it', () => {
    // the edited line is away from the records it affects, so only the indexes link them
    const text = `${HEAD}@ NS ns.d\nns.d A 192.0.2.3\nx A 192.0.2.8\ny A 192.0.2.9\n\n`;
    const session = new ZoneSession(text, { origin: ORIGIN });
    assert.deepEqual(session.problems(), []);
    session.edit(8, 9, 'd DNAME example.net.');
    assert.deepEqual(
      session.problems().map((p) => `${p.range.line + 1}:${p.code}`),
      ['5:target-below-dname'],
    );
    session.edit(8, 9, '');
    assert.deepEqual(session.problems(), []);
    session.edit(5, 6, '; ns.d has no address of its own now');
    session.edit(8, 9, '*.d A 192.0.2.4');
    assert.deepEqual(session.problems(), []);
    session.edit(8, 9, '*.d TXT "no address"');
    assert.deepEqual(
      session.problems().map((p) => `${p.range.line + 1}:${p.code}`),
      ['5:missing-glue'],
    );
  });
});

describe('engine/zone rules of issue 27: empty non-terminals made and unmade by edits', () => {
  const AWAY = ['x A 192.0.2.8', 'y A 192.0.2.9', '', ''];

  /** "line:code" of a session's problems, and the same of a fresh load of its text. */
  function both(session: ZoneSession, text: string): [string[], string[]] {
    const codes = (s: ZoneSession) => s.problems().map((p) => `${p.range.line + 1}:${p.code}`);
    return [codes(session), codes(new ZoneSession(text, { origin: ORIGIN }))];
  }

  it('a wildcard-matched NS target that becomes an empty non-terminal is checked again', () => {
    // RFC 4592 section 2.2.2: a name with names below it exists, so no wildcard answers for it
    // the edited lines are away from the records they affect, so only the indexes link them
    const lines = [...HEAD.split('\n').slice(0, 4), '@ NS ns.sub', '*.sub A 192.0.2.5', ...AWAY];
    const session = new ZoneSession(lines.join('\n'), { origin: ORIGIN });
    assert.deepEqual(session.problems(), []);
    lines[8] = 'x.ns.sub A 192.0.2.6';
    session.edit(8, 9, lines[8]);
    assert.deepEqual(both(session, lines.join('\n')), [['5:missing-glue'], ['5:missing-glue']]);
    lines[8] = '';
    session.edit(8, 9, lines[8]);
    assert.deepEqual(both(session, lines.join('\n')), [[], []]);
  });

  it('a name deeper down makes every empty ancestor exist, and the closest encloser moves', () => {
    // the target a.b.sub takes *.sub's address while b.sub does not exist; c.d.b.sub makes
    // b.sub (and d.b.sub) exist, so the closest encloser is b.sub, which has no wildcard
    const lines = [...HEAD.split('\n').slice(0, 4), '@ NS a.b.sub', '*.sub A 192.0.2.5', ...AWAY];
    const session = new ZoneSession(lines.join('\n'), { origin: ORIGIN });
    assert.deepEqual(session.problems(), []);
    lines[8] = 'c.d.b.sub A 192.0.2.6';
    session.edit(8, 9, lines[8]);
    assert.deepEqual(both(session, lines.join('\n')), [['5:missing-glue'], ['5:missing-glue']]);
    lines[8] = '*.b.sub AAAA 2001:db8::6';
    session.edit(8, 9, lines[8]);
    assert.deepEqual(both(session, lines.join('\n')), [[], []]);
    lines[9] = 'e.a.b.sub TXT "a.b.sub exists now, with no address"';
    session.edit(9, 10, lines[9]);
    assert.deepEqual(both(session, lines.join('\n')), [['5:missing-glue'], ['5:missing-glue']]);
    lines[9] = '';
    session.edit(9, 10, lines[9]);
    assert.deepEqual(both(session, lines.join('\n')), [[], []]);
  });
});

describe('engine/zone rules of issue 27: $GENERATE numbers as BIND reads them', () => {
  /** The TXT data $GENERATE 0-1 makes with the modifier, as zone-check --print writes it. */
  function generated(modifier: string): string[] {
    const text = `${HEAD}$GENERATE 0-1 h$ TXT v${'$'}{${modifier}}\n`;
    return lines(text)
      .filter((l) => l.includes(' TXT '))
      .map((l) => l.split(' ').pop()!);
  }

  it('an offset past 32 bits wraps, and sticks at the 64-bit limits, as glibc’s sscanf %d', () => {
    // BIND reads the modifier with sscanf (lib/dns/master.c): a C long cut to an int
    assert.deepEqual(generated('99999999999'), ['"v1215752191"', '"v1215752192"']);
    assert.deepEqual(generated('4294967296'), ['"v0"', '"v1"']);
    assert.deepEqual(generated('2147483648'), ['"v-2147483648"', '"v-2147483647"']);
    assert.deepEqual(generated('99999999999999999999'), ['"v-1"', '"v0"']);
    assert.deepEqual(generated('-99999999999999999999'), ['"v0"', '"v1"']);
    // within 32 bits, BIND's own rule: iterator + offset must not overflow
    assert.deepEqual(errors(`$GENERATE 0-0 h${'$'}{2147483647} A 192.0.2.1\n`), []);
    assert.deepEqual(errors(`$GENERATE 1-1 h${'$'}{2147483647} A 192.0.2.1\n`), ['5:bad-generate']);
    // -2147483649 wraps to 2147483647: the same overflow
    assert.deepEqual(errors(`$GENERATE 0-1 h${'$'}{-2147483649} A 192.0.2.1\n`), [
      '5:bad-generate',
    ]);
  });

  it('a width past 32 bits wraps as %u; past 127 characters BIND runs out of space', () => {
    assert.deepEqual(generated('0,4294967297,d'), ['"v0"', '"v1"']);
    assert.deepEqual(generated('0,-4294967295,d'), ['"v0"', '"v1"']);
    assert.deepEqual(generated('-5,4,d'), ['"v-005"', '"v-004"']);
    assert.equal(generated('0,127,d')[0].length, 128 + 2);
    for (const modifier of ['0,128,d', '0,4294967295,x', '0,-1,d', '0,18446744073709551616,n']) {
      assert.deepEqual(
        errors(`$GENERATE 0-1 h$ TXT v${'$'}{${modifier}}\n`),
        ['5:bad-generate'],
        modifier,
      );
    }
  });
});
