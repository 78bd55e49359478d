// CAA records (RFC 8659) exactly as sent: an empty value ("no CA may issue") in a set does not
// fail the look-up, any tag comes back under its own name with its flags, and the value is
// the bytes to the end of the record: a NUL inside it is kept, non-UTF-8 bytes escaped.
import * as assert from 'node:assert/strict';
import { outcomeOf } from '../../../../src/engine/dns/records';
import { textToLabels } from '../../../../src/engine/dns/names';
import { parseMessage, TYPE_CODES } from '../../../../src/engine/dns/wire';
import { caaRdata, rawReply } from '../../../support/dns-wire';

function caa(...records: Buffer[]) {
  const reply = rawReply(
    'x.test',
    TYPE_CODES.CAA,
    records.map((rdata) => ({ owner: 'x.test', type: TYPE_CODES.CAA, ttl: 60, rdata })),
  );
  const outcome = outcomeOf(parseMessage(reply), textToLabels('x.test'), 'CAA');
  assert.equal(outcome.kind, 'records');
  return outcome.kind === 'records' ? outcome.records : [];
}

describe('CAA records', () => {
  it('an empty value beside others keeps the whole set', () => {
    assert.deepEqual(caa(caaRdata(0, 'issue', ''), caaRdata(0, 'issue', 'ca.example.net')), [
      { type: 'CAA', flags: 0, tag: 'issue', value: '', ttl: 60 },
      { type: 'CAA', flags: 0, tag: 'issue', value: 'ca.example.net', ttl: 60 },
    ]);
  });

  it('unusual tags come back under their own name, critical flag and all', () => {
    assert.deepEqual(
      caa(
        caaRdata(128, 'critical', 'x'),
        caaRdata(0, 'type', 'CAA'),
        caaRdata(128, 'tbs', ''),
        caaRdata(0, 'Issue0x', 'y'),
      ),
      [
        { type: 'CAA', flags: 128, tag: 'critical', value: 'x', ttl: 60 },
        { type: 'CAA', flags: 0, tag: 'type', value: 'CAA', ttl: 60 },
        { type: 'CAA', flags: 128, tag: 'tbs', value: '', ttl: 60 },
        { type: 'CAA', flags: 0, tag: 'Issue0x', value: 'y', ttl: 60 },
      ],
    );
  });

  it('a NUL inside the value is kept, not cut', () => {
    const [record] = caa(caaRdata(0, 'issue', Buffer.from('ca\u0000.example', 'latin1')));
    assert.equal(record.value, 'ca\u0000.example');
  });

  it('UTF-8 values read as text, other bytes as \\DDD escapes', () => {
    const [utf8, latin1] = caa(
      caaRdata(0, 'iodef', 'mailto:sécurité@example.test'),
      caaRdata(0, 'iodef', Buffer.from([0x61, 0xe9, 0x22, 0x5c, 0x7f])),
    );
    assert.equal(utf8.value, 'mailto:sécurité@example.test');
    assert.equal(latin1.value, 'a\\233\\"\\\\\\127');
  });

  it('flags other than 0 and 128 come back as sent', () => {
    assert.deepEqual(
      caa(caaRdata(255, 'issue', ';')).map((r) => r.flags),
      [255],
    );
  });
});
