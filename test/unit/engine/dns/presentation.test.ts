// Names and character-strings as text (RFC 1035 section 5.1), and the message reader's
// refusals: the forms users read must map back to the exact bytes on the wire.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { bytesText } from '../../../../src/engine/dns/presentation';
import { nameText, readName, textToLabels } from '../../../../src/engine/dns/names';
import { stringsJson } from '../../../../src/engine/dns/rdata/codecs';
import { MalformedMessage, parseMessage } from '../../../../src/engine/dns/wire';
import { LookupError } from '../../../../src/contract/errors';

const b = (s: string) => Buffer.from(s, 'latin1');

describe('engine/dns presentation', () => {
  const names: Array<[Buffer[], string]> = [
    [[b('sp ace'), b('example')], 'sp\\032ace.example.'],
    [[b('a.b'), b('example')], 'a\\.b.example.'],
    [[b('_dmarc'), b('x-y'), b('Z9')], '_dmarc.x-y.Z9.'],
    [[b('*'), b('wild')], '*.wild.'],
    [[b('0/25'), b('2'), b('0'), b('192'), b('in-addr'), b('arpa')], '0/25.2.0.192.in-addr.arpa.'],
    [[b('q"uo\\te;')], 'q\\"uo\\\\te\\;.'],
    [[b('#x@y')], '\\035x\\@y.'],
    [[Buffer.from('café', 'utf8')], 'caf\\195\\169.'],
    [[Buffer.from([0, 9, 127, 255])], '\\000\\009\\127\\255.'],
    [[], '.'],
  ];
  for (const [labels, text] of names) {
    it(`prints ${JSON.stringify(text)} and reads it back`, () => {
      assert.equal(nameText(labels), text);
      assert.deepEqual(
        textToLabels(text).map((l) => Buffer.from(l)),
        labels,
      );
    });
  }

  it('any name survives printing and reading back (property)', () => {
    const label = fc.uint8Array({ minLength: 1, maxLength: 63 });
    fc.assert(
      fc.property(fc.array(label, { maxLength: 3 }), (labels) => {
        const back = textToLabels(nameText(labels)).map((l) => Buffer.from(l));
        assert.deepEqual(
          back,
          labels.map((l) => Buffer.from(l)),
        );
      }),
      { seed: 12, numRuns: 500 },
    );
  });

  for (const bad of [
    'a..b',
    '\\',
    'a\\256',
    `${'x'.repeat(64)}.test`,
    `${'abcdefghi.'.repeat(26)}x`,
  ]) {
    it(`refuses ${JSON.stringify(bad.slice(0, 20))} as a name`, () => {
      assert.throws(
        () => textToLabels(bad),
        (e: unknown) => e instanceof LookupError && e.code === 'invalid_host',
      );
    });
  }

  it('character-strings: UTF-8 as text, anything else escaped', () => {
    assert.equal(bytesText(Buffer.from('café "x" \\', 'utf8')), 'café "x" \\');
    assert.equal(bytesText(b('caf\xe9 "x" \\')), 'caf\\233 \\"x\\" \\\\');
    assert.equal(bytesText(Buffer.alloc(0)), '');
  });

  it('TXT: one choice for the whole record, made on the joined bytes', () => {
    const cafe = Buffer.from('café', 'utf8');
    // é cut between two strings: the value is text, the parts show the cut bytes
    const cut = stringsJson([cafe.subarray(0, 4), cafe.subarray(4)]);
    assert.deepEqual(cut, { value: 'café', parts: ['caf\\195', '\\169'] });
    const latin = stringsJson([b('a\xe9'), b('ok')]);
    assert.deepEqual(latin, { value: 'a\\233ok', parts: ['a\\233', 'ok'] });
    assert.deepEqual(stringsJson([Buffer.alloc(0)]), { value: '', parts: [''] });
  });

  describe('the message reader', () => {
    const header = (qd: number, an = 0) =>
      Buffer.from([0, 1, 0x81, 0x80, 0, qd, 0, an, 0, 0, 0, 0]);

    it('refuses a compression loop and a pointer that goes forwards', () => {
      const loop = Buffer.concat([header(1), Buffer.from([0xc0, 12, 0, 1, 0, 1])]);
      assert.throws(() => parseMessage(loop), MalformedMessage);
      const forward = Buffer.concat([header(1), Buffer.from([0xc0, 14, 0, 1, 0, 1])]);
      assert.throws(() => parseMessage(forward), MalformedMessage);
    });

    it('refuses short messages, cut labels and counts past the end', () => {
      assert.throws(() => parseMessage(Buffer.from([0, 1, 0x81])), MalformedMessage);
      assert.throws(
        () => parseMessage(Buffer.concat([header(1), Buffer.from([5, 0x61])])),
        MalformedMessage,
      );
      assert.throws(
        () => parseMessage(Buffer.concat([header(1, 1), Buffer.from([0, 0, 1, 0, 1])])),
        MalformedMessage,
      );
    });

    it('follows a backward pointer', () => {
      const message = Buffer.concat([header(0), Buffer.from([1, 0x61, 0, 1, 0x62, 0xc0, 12])]);
      assert.equal(nameText(readName(message, 15).labels), 'b.a.');
    });
  });
});
