import assert from 'node:assert/strict';
import fc from 'fast-check';
import { checkZone, ZoneSession, type ZoneProblem } from '../../../../src/engine/zone/index';
import { applyLineEdits, lineEdits } from '../../../support/zone-edits';

const HEAD =
  '$TTL 3600\n@ IN SOA ns1 hostmaster 1 3600 600 86400 300\n@ IN NS ns1\nns1 IN A 192.0.2.1\n';

function problems(body: string, head = HEAD): ZoneProblem[] {
  return new ZoneSession(head + body, { origin: 'example.com.' }).problems();
}

function codes(body: string, head = HEAD): string[] {
  return problems(body, head).map((p) => `${p.range.line + 1}:${p.code}:${p.severity}`);
}

describe('engine/zone checks', () => {
  it('a clean zone has no problems', () => {
    assert.deepEqual(codes('www A 192.0.2.2\nmail A 192.0.2.3\n@ MX 10 mail\n'), []);
  });

  it('SOA: none, more than one, not at the apex', () => {
    assert.deepEqual(codes('@ NS ns1\nns1 A 192.0.2.1\n', '$TTL 1h\n'), ['1:no-soa:error']);
    assert.deepEqual(codes('@ SOA ns1 hm 2 1 1 1 1\n'), ['5:multiple-soa:error']);
    assert.deepEqual(codes('sub SOA ns1 hm 2 1 1 1 1\n'), ['5:soa-not-at-apex:error']);
    assert.deepEqual(codes('', '$TTL 1h\n@ SOA ns1 hm 1 2 3 4 5\n'), ['2:no-ns:error']);
  });

  it('CNAME beside other data, at the apex, twice', () => {
    assert.deepEqual(codes('www A 192.0.2.2\nwww CNAME ns1\n'), ['6:cname-and-other-data:error']);
    assert.deepEqual(codes('www CNAME ns1\nwww A 192.0.2.2\n'), [
      '5:cname-and-other-data:error',
      '6:cname-and-other-data:error',
    ]);
    assert.deepEqual(codes('@ CNAME example.net.\n'), ['5:cname-at-apex:error']);
    assert.deepEqual(codes('www CNAME a\nwww CNAME b\n'), ['6:multiple-cname:error']);
    assert.deepEqual(codes('www CNAME a\nwww RRSIG A 13 2 300 1 1 1 example.com. AAAA\n'), []);
  });

  it('NS, MX and SRV targets that are CNAMEs, with a fix pointing at the CNAME target', () => {
    const body = 'alias CNAME ns1\n@ NS alias\n@ MX 10 alias\n_s._tcp SRV 0 0 5060 alias\n';
    assert.deepEqual(codes(body), [
      '6:ns-target-cname:error',
      '7:mx-target-cname:warning',
      '8:srv-target-cname:warning',
    ]);
    const ns = problems(body)[0];
    assert.deepEqual(ns.range, { line: 5, start: 5, end: 10 });
    assert.deepEqual(ns.fix, {
      title: 'Point at ns1.example.com.',
      range: ns.range,
      replacement: 'ns1.example.com.',
    });
  });

  it('missing glue: an error for the zone own NS, a warning for a delegation (as BIND)', () => {
    assert.deepEqual(codes('@ NS ns2\n'), ['5:missing-glue:error']);
    assert.deepEqual(codes('sub NS ns.sub\n'), ['5:missing-glue:warning']);
    assert.deepEqual(codes('sub NS ns.sub\nns.sub A 192.0.2.9\n'), [], 'glue is not occluded data');
    assert.deepEqual(codes('@ NS ns.example.net.\n'), [], 'out-of-zone targets need no glue');
  });

  it('data outside the origin and below a delegation', () => {
    assert.deepEqual(codes('www.example.net. A 192.0.2.3\n'), ['5:outside-origin:warning']);
    assert.deepEqual(
      codes(
        'sub NS ns1\nx.sub A 192.0.2.5\ny.x.sub TXT "t"\nsub DS 1 8 1 0123456789012345678901234567890123456789\n',
      ),
      ['6:below-delegation:warning', '7:below-delegation:warning'],
    );
  });

  it('TTLs differing within an RRset, with a fix; duplicates, with a fix', () => {
    const p = problems('www 100 A 192.0.2.1\nwww 200 A 192.0.2.2\n  A 192.0.2.3\n');
    assert.deepEqual(
      p.map((x) => `${x.range.line + 1}:${x.code}`),
      ['6:ttl-mismatch', '7:ttl-mismatch'],
      'the third takes $TTL 3600',
    );
    assert.deepEqual(p[0].fix, {
      title: 'Use TTL 100',
      range: { line: 5, start: 4, end: 7 },
      replacement: '100',
    });
    const d = problems('www A 192.0.2.1\nwww A 192.0.2.1\n');
    assert.deepEqual(
      d.map((x) => `${x.range.line + 1}:${x.code}`),
      ['6:duplicate-record'],
    );
    assert.deepEqual(d[0].fix!.range, { line: 5, start: 0, endLine: 6, end: 0 });
  });

  it('compares RRsets the same way at an owner with a few records and at a crowded one', () => {
    // A few records are compared pairwise, many through maps: both must name the same lines.
    const rrsets = [
      'multi 100 A 192.0.2.1',
      'multi 200 A 192.0.2.2',
      'multi TXT "one"',
      'multi 100 A 192.0.2.1',
      'multi 100 TXT "one"',
      'multi AAAA 2001:db8::1',
      'multi AAAA 2001:DB8:0::1',
    ];
    const expected = (at: number) => [
      `${at + 1}:ttl-mismatch`,
      `${at + 3}:duplicate-record`,
      `${at + 4}:duplicate-record`,
      `${at + 4}:ttl-mismatch`,
      `${at + 6}:duplicate-record`,
    ];
    const few = problems(`${rrsets.join('\n')}\n`);
    assert.deepEqual(
      few.map((x) => `${x.range.line + 1}:${x.code}`),
      expected(5),
    );
    const filler = Array.from({ length: 30 }, (_, i) => `multi TXT "filler ${i}"`);
    const crowded = problems(`${[...filler, ...rrsets].join('\n')}\n`);
    assert.deepEqual(
      crowded.map((x) => `${x.range.line + 1}:${x.code}`),
      expected(35),
    );
    assert.deepEqual(
      crowded.map((x) => [x.message, x.fix?.title]),
      few.map((x) => [x.message, x.fix?.title]),
    );
  });

  it('malformed addresses, ports, CAA flags', () => {
    assert.deepEqual(
      codes('a A 192.0.2.01\nb AAAA 2001:db8::g\nc SRV 0 0 65536 ns1\nd CAA 300 issue "x"\n'),
      ['5:bad-address:error', '6:bad-address:error', '7:bad-port:error', '8:bad-caa-flags:error'],
    );
  });

  describe('incremental re-checking', () => {
    const LINES = [
      'www A 192.0.2.2',
      'www CNAME ns1',
      '  AAAA 2001:db8::2',
      'sub NS ns.sub',
      'ns.sub A 192.0.2.9',
      'x.sub TXT "occluded"',
      'alias CNAME www',
      '@ MX 10 alias',
      '@ NS ns2',
      'ns2 A 192.0.2.10',
      '$ORIGIN other.example.com.',
      '$TTL 60',
      'h 300 A 192.0.2.1',
      'h A 192.0.2.1',
      'mx SOA ( ns1 hm',
      '  1 2 3 4 5 )',
      'bad A 1.2.3',
      '',
      '; comment',
      'www.example.net. A 192.0.2.1',
      't TXT "a" "b"',
      '$ORIGIN example.com.',
      // targets a wildcard answers for, and names that make them (or an ancestor) exist
      '@ NS ns.w',
      '@ NS a.b.w',
      '*.w A 192.0.2.5',
      '*.b.w AAAA 2001:db8::5',
      'x.ns.w A 192.0.2.6',
      'c.d.b.w TXT "x"',
    ];
    const line = fc.constantFrom(...LINES);

    it('gives the same records and problems as a full parse after any edits', () => {
      fc.assert(
        fc.property(
          fc.array(line, { minLength: 0, maxLength: 14 }),
          lineEdits(line, 6),
          (start, edits) => {
            const before = [...HEAD.trimEnd().split('\n'), ...start];
            const session = new ZoneSession(before.join('\n'), { origin: 'example.com.' });
            const lines = applyLineEdits(session, before, edits);
            const full = new ZoneSession(lines.join('\n'), { origin: 'example.com.' });
            const show = (s: ZoneSession) => ({
              records: s
                .records()
                .map((r) => `${r.range.line} ${r.key} ${r.ttl} ${r.type} ${r.data}`)
                .sort(),
              problems: s
                .problems()
                .map((p) => `${p.range.line}:${p.range.start} ${p.code} ${p.message}`)
                .sort(),
            });
            assert.deepEqual(show(session), show(full));
          },
        ),
        { seed: 1313, numRuns: 300 },
      );
    });

    it('after thousands of edits (rows of past edits copied out) agrees with a fresh parse', () => {
      const lines = [...HEAD.trimEnd().split('\n'), 'www A 192.0.2.2', 'dup A 192.0.2.1', 'x', ''];
      const session = new ZoneSession(lines.join('\n'), { origin: 'example.com.' });
      for (let i = 0; i < 6000; i++) {
        // a typo and its repair, a duplicate made and undone, lines moving below
        const at = 4 + (i % 3);
        lines[at] = i % 2 === 0 ? `h${i} A 192.0.2.${i % 250}` : 'dup A 192.0.2.1';
        session.edit(at, at + 1, lines[at]);
        if (i % 500 === 0) {
          lines.splice(1, 0, '; a comment');
          session.edit(1, 1, '; a comment');
        }
      }
      const fresh = new ZoneSession(lines.join('\n'), { origin: 'example.com.' });
      // as JSON: every field, those made on first reading too
      const plain = (s: ZoneSession) => JSON.parse(JSON.stringify(s.records())) as unknown;
      assert.deepEqual(plain(session), plain(fresh));
      assert.deepEqual(session.problems(), fresh.problems());
      // the dead rows were dropped: the table holds about what the file holds
      assert.ok(session.document.rows.count < 4200, String(session.document.rows.count));
    });

    it('the one-shot check (no re-check caches) gives exactly the problems of a session', () => {
      const oneShotLines = [
        ...LINES,
        'open ( TXT "never closed"',
        'x TXT "unterminated',
        '  )',
        'dup A 192.0.2.1',
        'dup A 192.0.2.1',
        '$GENERATE 1-3 g$ A 192.0.2.$',
      ];
      fc.assert(
        fc.property(
          fc.array(fc.constantFrom(...oneShotLines), { maxLength: 16 }),
          fc.constantFrom('\n', '\r\n'),
          fc.constantFrom('', '\n', '\n\n'),
          (body, eol, tail) => {
            const text = [...HEAD.trimEnd().split('\n'), ...body].join(eol) + tail;
            const options = { origin: 'example.com.' };
            assert.deepEqual(checkZone(text, options), new ZoneSession(text, options).problems());
          },
        ),
        { seed: 1314, numRuns: 300 },
      );
    });
  });
});
