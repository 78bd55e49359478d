// The one-shot parser reads the entries that lex cleanly straight from the text (scanEntry) and
// the others line by line (tokenizeLine). Both must load the same records and report the same
// problems: checked here on generated zones (the differential suites' generators, every
// mutation) and on lines made of fragments chosen to fall on both sides of the fast path
// (quotes, escapes, parentheses nested or never closed, directives, comments, CRs, blanks).
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { emptyScannedEntry, scanEntry, MAX_LINE_CHARS } from '../../../../src/engine/zone/lexer';
import { generateZone as generateDiffZone } from '../../../support/zone-gen';
import { generateZone, MUTATIONS, ORIGIN } from '../../../support/zone-generator';
import { seeded } from '../../../support/prng';
import { assertSameParse } from '../../../support/zone-parse-paths';

/** Pieces of record lines: the usual, and those that must send an entry to the full lexer. */
const FRAGMENTS = [
  'www',
  '@',
  'sub.example.com.',
  '*.wild',
  'a\\.b',
  '\\@',
  '3600',
  '1h30m',
  'IN',
  'CLASS1',
  'CH',
  'A',
  '192.0.2.1',
  'AAAA',
  '2001:db8::1',
  'MX',
  '10',
  'mail',
  'TXT',
  '"v=spf1 -all"',
  '"a \\"quoted\\" \\059 text"',
  '"unterminated',
  '""',
  'NS',
  'ns1',
  'SOA',
  'ns1 hostmaster 1 3600 600 86400 300',
  'DS',
  '12345 8 2',
  '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
  'RRSIG',
  'A 8 2 3600 20261227053204 20261127053204 3606 example.com.',
  'AwEAAcw5QLr0',
  'TYPE65534',
  '\\# 2 0102',
  '(',
  ')',
  '((',
  ';',
  '; a comment ( with "quotes"',
  '$TTL 300',
  '$ORIGIN',
  '$ORIGIN other.test.',
  '$INCLUDE none',
  '$GENERATE 1-3 h$ A 192.0.2.$',
  'word\\',
  'x"y',
];

const line = fc
  .tuple(
    fc.constantFrom('', ' ', '\t', '  '),
    fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 8 }),
    fc.constantFrom(' ', '\t', ' ; end'),
    fc.constantFrom('\n', '\r\n', '\r\r\n'),
  )
  .map(([lead, words, sep, end]) => `${lead}${words.join(sep === ' ; end' ? ' ' : sep)}${end}`);

describe('engine/zone fast path (scanEntry) against the full lexer', () => {
  it('the differential suites zones, every mutation, load the same records and problems', () => {
    const rand = seeded(2024);
    for (const mutation of MUTATIONS) {
      for (let i = 0; i < 3; i++) assertSameParse(generateZone(rand, mutation, 20).text, ORIGIN);
    }
    for (let seed = 1; seed <= 10; seed++)
      assertSameParse(generateDiffZone(seed).text, 'diff.test.');
  });

  it('lines made of usual and unusual fragments: the same records and problems', () => {
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 12 }),
        fc.boolean(),
        (lines, finalFeed) => {
          const body = lines.join('');
          const text = `$TTL 1h\n@ SOA ns1 hm 1 2 3 4 5\n${finalFeed ? body : body.replace(/\r*\n$/, '')}`;
          assertSameParse(text, 'example.com.');
        },
      ),
      { seed: 2427, numRuns: 1500 },
    );
  });

  it('entries the fast path leaves to the full lexer, and where it picks up again', () => {
    const cases = [
      'a A 192.0.2.1 (\n', // "(" never closed
      'a TXT "open\nb A 192.0.2.2\n',
      'a A ( ( 192.0.2.1 ) )\nb A 192.0.2.2\n',
      'a A 192.0.2.1 )\nb A 192.0.2.2\n',
      'a MX ( 10\n ; inside\n mail ) ; after\n\nb A 192.0.2.2',
      '($TTL 60)\nc A 192.0.2.3\n',
      '\r\n a A 192.0.2.1\r\n',
      `a TXT "${'x'.repeat(MAX_LINE_CHARS)}"\nb A 192.0.2.2\n`,
    ];
    for (const body of cases)
      assertSameParse(`$TTL 1h\n@ SOA ns1 hm 1 2 3 4 5\n${body}`, 'example.com.');
  });

  it('scanEntry reads parenthesised entries across lines, and declines what it does not read', () => {
    const out = emptyScannedEntry();
    const text = 'x\n  MX ( 10 ; c\n  mail )\nnext';
    assert.equal(scanEntry(text, 2, 1, out), true);
    assert.deepEqual(
      out.tokens.map((t) => [t.text, t.line, t.start, t.end]),
      [
        ['MX', 1, 2, 4],
        ['10', 1, 7, 9],
        ['mail', 2, 2, 6],
      ],
    );
    assert.deepEqual([out.leadingBlank, out.lines, out.endLine, out.endColumn], [true, 2, 2, 8]);
    assert.equal(text.slice(out.next), 'next');
    assert.equal(scanEntry('a ( (\n', 0, 0, out), false, 'nested');
    assert.equal(scanEntry('a )\n', 0, 0, out), false, 'unbalanced');
    assert.equal(scanEntry('a TXT "x\n', 0, 0, out), false, 'unterminated string');
    assert.equal(scanEntry('a ( b\n', 0, 0, out), false, 'never closed');
  });
});
