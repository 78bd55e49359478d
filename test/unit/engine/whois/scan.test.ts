// The one pass over a reply (scan.ts) that the reader and the classifier share: its line ends
// are where the reply's newlines are, and the classifier reading a scan answers as it does on
// the text alone, also when the shared copy was replaced since (another reply scanned, the
// classifier's own window loaded) and for a reply too long for the shared buffer.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  classifyReply,
  classifyScanned,
  classifyScannedRaw,
  clean,
  opensWithNotFound,
} from '../../../../src/engine/whois/reply';
import { readRecords, readScanned } from '../../../../src/engine/whois/reader';
import { isCurrent, scanReply, SHARED_UNITS } from '../../../../src/engine/whois/scan';

/** Lines a reply is made of: statements the classifier reads, fields, notices, blanks. */
const LINE = fc.constantFrom(
  'No match for "EXAMPLE.COM".',
  'Domain Status: Available',
  '% Too many requests, try again in 60 seconds',
  // a refusal that names the client: its detail is cleaned (clean)
  'Your address 192.0.2.7 has been blocked',
  'Access denied for 2001:db8::7',
  'This name is reserved by the registry.',
  'Domain Name: example.com',
  'Name Server: ns1.example.net',
  'Creation Date: 2001-02-03T04:05:06Z',
  'NOTICE: The expiration date displayed in this record is the date the',
  'Registrar: Example Registrar, Inc.',
  '% Rights restricted by copyright.',
  'Não encontrado',
  '該当するデータがありません',
  '',
  '   ',
);

const REPLY = fc
  .tuple(fc.array(LINE, { maxLength: 12 }), fc.constantFrom('\n', '\r\n'), fc.boolean())
  .map(([lines, eol, last]) => lines.join(eol) + (last ? eol : ''));

describe('whois reply scan', function () {
  it('ends each line at its newline and the last at the end of the reply', function () {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', '\n', 'é', '\r') }), (text) => {
        const scan = scanReply(text);
        const ends: number[] = [];
        for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) ends.push(i);
        ends.push(text.length);
        assert.deepEqual([...scan.lineEnds.subarray(0, scan.lineCount)], ends);
        for (let i = 0; i < text.length; i++) assert.equal(scan.units[i], text.charCodeAt(i));
      }),
    );
  });

  it('classifies a scanned reply as the reply alone', function () {
    fc.assert(
      fc.property(REPLY, (text) => {
        const alone = classifyReply(text);
        assert.deepEqual(classifyScanned(text, scanReply(text)), alone);
        assert.deepEqual(readScanned(scanReply(text)), readRecords(text));
      }),
    );
  });

  it('gives the line of a scanned reply as the server wrote it, for the verdict to clean', function () {
    // parse.ts cleans the line only where a detail is worded with it
    for (const [text, line] of [
      ['Your address 192.0.2.7 has been blocked\n', 'Your address 192.0.2.7 has been blocked'],
      ['% Note\n% Access denied for 2001:db8::7 ', 'Access denied for 2001:db8::7'],
      [`No match for "X".${' y'.repeat(150)}`, `No match for "X".${' y'.repeat(141)}`],
    ]) {
      const raw = classifyScannedRaw(text, scanReply(text));
      assert.equal(raw?.line, line);
      assert.deepEqual(classifyScanned(text, scanReply(text)), {
        kind: raw.kind,
        line: clean(line),
      });
      assert.notEqual(clean(line), line);
    }
  });

  it('does not read a scan whose shared copy holds another reply since', function () {
    fc.assert(
      fc.property(REPLY, REPLY, (first, second) => {
        const expected = classifyReply(first);
        const scan = scanReply(first);
        scanReply(second);
        assert.equal(isCurrent(scan), false);
        assert.deepEqual(classifyScanned(first, scan), expected);
        const again = scanReply(first);
        // opensWithNotFound copies a reply's first line into the shared buffer
        opensWithNotFound(`Domain Name: example.com${second}`);
        assert.equal(isCurrent(again), false);
        assert.deepEqual(classifyScanned(first, again), expected);
      }),
    );
  });

  it('copies a reply again unless the shared buffer still holds it whole', function () {
    // opensWithNotFound copies a short reply whole; the scan after it of the same reply finds
    // it there, and of another reply (or after another reply's copy) copies its own.
    const units = (text: string): number[] => [
      ...scanReply(text).units.subarray(0, text.length + 8),
    ];
    const expect = (text: string): number[] => [
      ...Array.from(text, (_, i) => text.charCodeAt(i)),
      ...new Array<number>(8).fill(0),
    ];
    fc.assert(
      fc.property(REPLY, REPLY, fc.boolean(), (first, second, between) => {
        opensWithNotFound(first);
        if (between) opensWithNotFound(second);
        assert.deepEqual(units(first), expect(first));
        opensWithNotFound(`${first}x`);
        classifyReply(second);
        assert.deepEqual(units(first), expect(first));
        // the same characters in another string
        opensWithNotFound(first);
        assert.deepEqual(units(`${first} `.slice(0, -1)), expect(first));
      }),
    );
  });

  it('reads a reply longer than the shared buffer from its own copy', function () {
    const filler = `${'% filler notice line without a statement\n'.repeat(SHARED_UNITS / 40)}`;
    for (const tail of ['No match for "EXAMPLE.COM".', 'Domain Name: example.com']) {
      // the statement within the first 64 KB, and past them (not read: classifyReply's rule)
      for (const text of [`${tail}\n${filler}`, `${filler}${tail}\n`]) {
        const scan = scanReply(text);
        assert.equal(scan.shared, false);
        assert.deepEqual(classifyScanned(text, scan), classifyReply(text));
        assert.deepEqual(readScanned(scanReply(text)), readRecords(text));
      }
    }
  });

  it('classifies the text it is given, not another one scanned', function () {
    const said = 'No match for "EXAMPLE.COM".';
    const other = 'Domain Name: example.com';
    assert.deepEqual(classifyScanned(said, scanReply(other)), classifyReply(said));
  });
});
