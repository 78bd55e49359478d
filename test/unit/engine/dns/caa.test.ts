import * as assert from 'node:assert/strict';
import { caaRecord } from '../../../../src/engine/dns/records';

describe('CAA records from c-ares', () => {
  it('reads the Node 20 shape {critical, <tag>}', () => {
    assert.deepEqual(caaRecord({ critical: 0, issue: 'ca.example.net' }), {
      type: 'CAA',
      flags: 0,
      tag: 'issue',
      value: 'ca.example.net',
    });
  });

  it('reads the Node 22+ shape that adds type: "CAA"', () => {
    assert.deepEqual(caaRecord({ critical: 128, type: 'CAA', iodef: 'mailto:sec@example.test' }), {
      type: 'CAA',
      flags: 128,
      tag: 'iodef',
      value: 'mailto:sec@example.test',
    });
  });
});
