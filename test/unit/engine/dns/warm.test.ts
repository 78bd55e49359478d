// The once-per-process warm-up runs a whole look-up through the real transport against a
// loopback responder of its own; it must get there (NODATA for all ten types), not time out.
import assert from 'node:assert/strict';
import { runWarmUp } from '../../../../src/engine/dns/warm';

describe('engine/dns warm-up', () => {
  it('asks all ten types of its own loopback responder and gets NODATA', async () => {
    assert.deepEqual(await runWarmUp(), { records: [], status: 'NOERROR' });
  });
});
