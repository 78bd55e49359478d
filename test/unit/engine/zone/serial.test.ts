import assert from 'node:assert/strict';
import { nextSerial } from '../../../../src/engine/zone/serial';

describe('engine/zone nextSerial', () => {
  const today = new Date(Date.UTC(2026, 10, 23));
  it('moves a date-style serial of an earlier day to today 00', () => {
    assert.equal(nextSerial(2026112207, today), 2026112300);
    assert.equal(nextSerial(1999010199, today), 2026112300);
  });
  it('counts up within the same day, and past 99 into the next number', () => {
    assert.equal(nextSerial(2026112300, today), 2026112301);
    assert.equal(nextSerial(2026112399, today), 2026112400);
  });
  it('counts plain serials up by one, wrapping at 2^32', () => {
    assert.equal(nextSerial(41, today), 42);
    assert.equal(nextSerial(4294967295, today), 0);
  });
});
