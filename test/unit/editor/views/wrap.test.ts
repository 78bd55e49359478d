import * as assert from 'node:assert/strict';
import { MESSAGE_LINE_CHARS, wrapMessage } from '../../../../src/editor/views/nodes/wrap';

describe('long Results-tree messages (wrapMessage)', () => {
  it('keeps a message that fits on one line', () => {
    assert.deepEqual(wrapMessage('No MX records'), ['No MX records']);
    assert.deepEqual(wrapMessage(''), ['']);
  });

  it('breaks between words into lines that fit, losing nothing', () => {
    const text =
      'gone.mail.test has no SPF record; receivers give permerror (include:gone.mail.test)';
    const lines = wrapMessage(text);
    assert.ok(lines.length > 1);
    for (const line of lines) assert.ok(line.length <= MESSAGE_LINE_CHARS, line);
    assert.equal(lines.join(' '), text);
  });

  it('cuts a long URL after a separator, so each piece reads as a part of it', () => {
    const url = 'https://mta-sts.mail.test/.well-known/mta-sts.txt';
    const lines = wrapMessage(`${url} could not be fetched`, 40);
    assert.deepEqual(lines, [
      'https://mta-sts.mail.test/.well-known/',
      'mta-sts.txt could not be fetched',
    ]);
  });

  it('cuts a word longer than a line and without separators at the width', () => {
    const word = 'x'.repeat(90);
    const lines = wrapMessage(`see ${word} here`, 40);
    assert.deepEqual(lines, ['see', 'x'.repeat(40), 'x'.repeat(40), `${'x'.repeat(10)} here`]);
  });
});
