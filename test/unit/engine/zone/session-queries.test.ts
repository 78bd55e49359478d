// The narrow questions of ZoneSession (by lines, by type, by target, written over several lines,
// by owner) answer exactly what filtering every record would, after any edits: the editor's
// features ask them instead of making an object per record of the zone.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ZoneSession, type ZoneRecord } from '../../../../src/engine/zone/index';
import { applyLineEdits, lineEdits } from '../../../support/zone-edits';

const HEAD = ['$TTL 3600', '@ IN SOA ( ns1 hostmaster', '  1 3600 600 86400 300 )', '@ NS ns1'];
const LINES = [
  'ns1 A 192.0.2.1',
  'www A 192.0.2.2',
  '  AAAA 2001:db8::2',
  'alias CNAME www',
  '@ MX 10 alias',
  '@ MX 20 WWW',
  'sub NS ns.sub',
  'ns.sub A 192.0.2.9',
  '_sip._tcp SRV 0 0 5060 www',
  'key DNSKEY 256 3 13 (',
  '  AQID )',
  't TXT ( "a"',
  '  "b" )',
  '$INCLUDE hosts.inc inc',
  '$GENERATE 1-3 g$ CNAME www',
  '$ORIGIN other.example.com.',
  'mx SOA ( ns1 hm',
  '  1 2 3 4 5 )',
  'open ( TXT "never closed"',
  'bad A 1.2.3',
  '',
  '; comment',
  '$ORIGIN example.com.',
];
const INCLUDED = 'www A 192.0.2.7\nalias CNAME www.example.com.\nml TXT ( "x"\n "y" )\n';

function session(lines: string[]): ZoneSession {
  return new ZoneSession(lines.join('\n'), {
    origin: 'example.com.',
    file: '/zones/example.com.zone',
    readInclude: (path) => ({ path: `/zones/${path}`, text: INCLUDED }),
  });
}

/** Every field of the records, as the editor would read them. */
const plain = (records: ZoneRecord[]) => JSON.parse(JSON.stringify(records)) as unknown;
const inFile = (r: ZoneRecord) => r.file === undefined;
const byPosition = (a: ZoneRecord, b: ZoneRecord) =>
  a.range.line - b.range.line || a.range.start - b.range.start;

function assertQueriesAgree(s: ZoneSession): void {
  const all = s.records();
  const lineCount = s.document.lineCount;
  for (let line = 0; line <= lineCount; line++) {
    const on = all.filter(
      (r) => inFile(r) && r.range.line <= line && (r.range.endLine ?? r.range.line) >= line,
    );
    assert.deepEqual(plain(s.recordsOnLines(line, line)), plain(on), `line ${line}`);
  }
  const span = all.filter(
    (r) => inFile(r) && r.range.line <= 6 && (r.range.endLine ?? r.range.line) >= 3,
  );
  assert.deepEqual(plain(s.recordsOnLines(3, 6)), plain(span), 'lines 3 to 6');
  for (const types of [['SOA'], ['A', 'AAAA'], ['CNAME'], ['NAPTR']]) {
    const ofTypes = all.filter((r) => types.includes(r.type));
    assert.deepEqual(plain(s.recordsOfTypes(...types)), plain(ofTypes), types.join());
  }
  const multi = all.filter((r) => inFile(r) && (r.range.endLine ?? r.range.line) !== r.range.line);
  assert.deepEqual(plain(s.multiLineRecords()), plain(multi), 'multi-line');
  const names = new Set(all.flatMap((r) => [r.key, r.target ?? 'nowhere.example.']));
  for (const key of names) {
    const pointing = all.filter((r) => r.target === key);
    assert.deepEqual(plain(s.recordsPointingAt(key)), plain(pointing), `pointing at ${key}`);
    // An owner's records come in the order they were added: the same set as in the file.
    const owned = all.filter((r) => r.key === key && inFile(r));
    const at = s.recordsAt(key).filter(inFile).sort(byPosition);
    assert.deepEqual(plain(at), plain(owned), `owner ${key}`);
  }
}

describe('engine/zone session queries', () => {
  it('answer as filtering every record would, included files and several lines among them', () => {
    const s = session([...HEAD, ...LINES]);
    assertQueriesAgree(s);
    // the included file's records are not on the checked file's lines
    assert.ok(s.recordsOfTypes('A').some((r) => r.file === '/zones/hosts.inc'));
    assert.ok(s.recordsOnLines(0, s.document.lineCount).every((r) => r.file === undefined));
    assert.deepEqual(
      s.multiLineRecords().map((r) => [r.type, r.range.line, r.range.endLine]),
      [
        ['SOA', 1, 2],
        ['DNSKEY', 13, 14],
        ['TXT', 15, 16],
        ['SOA', 20, 21],
      ],
    );
    assert.deepEqual(
      s.recordsPointingAt('www.example.com.').map((r) => r.type),
      ['CNAME', 'MX', 'SRV', 'CNAME', 'CNAME', 'CNAME', 'CNAME'],
    );
    assert.deepEqual(s.recordsPointingAt('unknown.example.'), []);
    assert.deepEqual(s.recordsOfTypes('NOSUCHTYPE'), []);
  });

  it('answer as filtering every record would after any edits', () => {
    const line = fc.constantFrom(...LINES);
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), lineEdits(line, 5), (start, edits) => {
        const lines = [...HEAD, ...start];
        const s = session(lines);
        applyLineEdits(s, lines, edits);
        assertQueriesAgree(s);
      }),
      { seed: 2828, numRuns: 150 },
    );
  });
});
