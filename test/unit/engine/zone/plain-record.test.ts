// The one-shot parser reads records of the plain shapes (owner, TTL, class IN, A, AAAA or NS
// and one datum, TXT and its strings, a DNSSEC type and its fields; on one line or held
// together by parentheses) in place (plain-record.ts) and leaves every other line to the general path. Both
// must give the same rows, problems and context: checked here against the full lexer (which
// takes neither shortcut) on lines made of fragments on both sides of every condition of the
// plain path, and on the bench's zones.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseName } from '../../../../src/engine/dns/names';
import { startOf } from '../../../../src/engine/zone/document';
import { NOT_PLAIN, readPlainRecord } from '../../../../src/engine/zone/plain-record';
import { RecordRows } from '../../../../src/engine/zone/rows';
import { rootLikeZone } from '../../../bench/zone-signed.bench';
import { seeded } from '../../../support/prng';
import { assertSameParse, parsed } from '../../../support/zone-parse-paths';
import { generateZone, ORIGIN } from '../../../support/zone-generator';

const OWNERS = [
  '0K7NIEEQ4U1TNL0H1F5LE6JUBJ1F0J6E',
  'www',
  'WWW.Sub',
  '@',
  '*',
  '*.wild',
  'a\\.b',
  'x.example.com.',
  'other.test.',
  '.',
  '$TTL',
  'café',
  'a..b',
  `${'l'.repeat(64)}`,
  '"quoted"',
];
const TTLS = ['3600', '1h30m', '1W', '0', '4294967295', '4294967296', '1x', '07'];
const CLASSES = ['IN', 'in', 'In', 'CH', 'CLASS1', 'ın'];
const TYPES = [
  'A',
  'a',
  'AAAA',
  'aAaA',
  'AAA',
  'NS',
  'ns',
  'Nſ',
  'MX',
  'TXT',
  'txt',
  'TxT',
  '"A"',
  'TYPE1',
  'RRSIG',
  'NSEC',
  'nsec3',
  'DS',
  'DNSKEY',
  'CDS',
  'TYPE46',
  'SOA',
];
const DATA = [
  '192.0.2.1',
  '192.0.2.01',
  '192.0.2',
  '256.0.0.1',
  '2001:db8::1',
  '2001:DB8:0:0:0:0:0:1',
  '::ffff:192.0.2.1',
  '::',
  '1:2:3:4:5:6:7:8:9',
  'ns1',
  'NS1',
  'ns1.example.com.',
  'ns.other.test.',
  'a\\@b',
  '@',
  '"quoted"',
  '(',
  ')',
  '10 mail',
  '"v=spf1 -all"',
  '"a \\"quoted\\" \\059 text"',
  '"é"',
  '""',
  '"\\#"',
  '\\# 1 00',
  `"${'x'.repeat(256)}"`,
  `"${'y'.repeat(255)}"`,
  '"\\256"',
  '"unterminated',
  '"a"b',
  'word',
  'wörd',
  '"tab\there"',
  'A 8 2 3600 20261227053204 20261127053204 3606 example.com. AwEAAcw5QLr0',
  'NS 13 1 86400 ( 20261227053204 20261127053204 3606 .\n AwEAAcw5QLr0 ; c\n AwEA )',
  'A 8 9 3600 20261227053204 20261127053204 3606 sub.x. AwEAAcw5QLr0',
  'x.example.com. A NS RRSIG',
  'Next. A',
  '1 0 0 - 0K7NIEEQ4U1TNL0H1F5LE6JUBJ1F0J6E NS',
  '1 0 0 - 0K7NIEEQ4U1TNL0H1F5LE6JUBJ1F0J6 NS',
  '12345 8 2 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
  '12345 8 2 0123456789ABCDEF',
  '257 3 13 AwEA AcPk',
  '257 3 13 ( AwEA\n\tAcPk )',
  '( 192.0.2.1 )',
  '(\n 192.0.2.1 )',
  '( ; c\n "a" )\t; d',
  '( "a"\n',
  '( ( "a" ) )',
  '(',
];

/** A line of fragments in the order of a record, some left out, some doubled. */
const line = fc
  .tuple(
    fc.constantFrom('', ' ', '\t'),
    fc.constantFrom(...OWNERS),
    fc.array(fc.constantFrom(...TTLS, ...CLASSES), { maxLength: 3 }),
    fc.array(fc.constantFrom(...TYPES), { minLength: 0, maxLength: 2 }),
    fc.array(fc.constantFrom(...DATA), { maxLength: 2 }),
    fc.constantFrom(' ', '\t', ' \t '),
    fc.constantFrom('', ' ', ' ; a comment', ';(', '\t;"'),
    fc.constantFrom('\n', '\r\n', '\r\r\n', ' \n'),
  )
  .map(([lead, owner, mid, types, data, sep, tail, end]) => {
    const words = [...(lead === '' ? [owner] : []), ...mid, ...types, ...data];
    return `${lead}${words.join(sep)}${tail}${end}`;
  });

describe('engine/zone plain records (plain-record.ts) against the full lexer', () => {
  it('lines on both sides of every condition: the same rows, problems and context', () => {
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 10 }),
        fc.constantFrom('$TTL 1h\n', '', '$ORIGIN sub.example.com.\n', '$TTL 60\n$ORIGIN .\n'),
        fc.boolean(),
        (lines, head, finalFeed) => {
          const body = lines.join('');
          const text = `${head}${finalFeed ? body : body.replace(/[\r ]*\n$/, '')}`;
          assertSameParse(text, 'example.com.');
          assertSameParse(text, '.');
        },
      ),
      { seed: 2428, numRuns: 2000 },
    );
  });

  it('the bench zones: the same rows, problems and context', () => {
    assertSameParse(generateZone(seeded(50000), 'none', 2000).text, ORIGIN);
    assertSameParse(rootLikeZone(300), '.');
  });

  it('takes the usual lines itself, and leaves the others unread', () => {
    const { env, start } = startOf({ origin: 'example.com.' });
    const rows = new RecordRows();
    const sink = {
      env,
      ctx: { ...start },
      rows,
      ownerName: parseName,
      keyOf: (owner: string) => owner.toLowerCase(),
    };
    const lines = [
      'www 3600 IN A 192.0.2.1\n',
      '\tIN 60 AAAA 2001:db8::1 ; c\n',
      ' ns ns1\n',
      ' TXT "v=spf1 -all" "a \\"q\\" \\059" word\n',
    ];
    const text = lines.join('');
    let at = 0;
    for (let line = 0; line < lines.length; line++) {
      at = readPlainRecord(text, at, line, sink);
      assert.equal(text.slice(at), lines.slice(line + 1).join(''), lines[line]);
    }
    assert.equal(readPlainRecord(text, at, 4, sink), text.length + 1, 'the empty last line');
    assert.deepEqual(
      [0, 1, 2, 3].map((row) => JSON.stringify(rows.record(row))),
      parsed(text, 'example.com.', true).records,
    );
    for (const other of [
      'www MX 10 mail\n',
      'www A 192.0.2.1 192.0.2.2\n',
      'www TXT "x" ( ( "y" ) )\n',
      'www SOA ns1 hm 1 2 3 4 5\n',
      'www TXT "\\#"\n',
      '$TTL 60\n',
      'w\\065 A 192.0.2.1\n',
      '*.x NS ns1\n',
      'out.test. A 192.0.2.1\n',
    ]) {
      assert.equal(readPlainRecord(other, 0, 0, sink), NOT_PLAIN, other);
    }
    assert.equal(rows.count, 4, 'nothing added for the lines left to the general path');
  });
});
