import assert from 'node:assert/strict';
import { LookupError } from '../../../src/contract/errors';
import { RateLimiter, WorkGate } from '../../../src/server/limits';

function rateLimited(fn: () => void): LookupError {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof LookupError);
    assert.equal(err.code, 'rate_limited');
    return err;
  }
  assert.fail('expected rate_limited');
}

describe('RateLimiter', () => {
  it('allows a burst, then refuses with a Retry-After, then refills', () => {
    let now = 0;
    const limiter = new RateLimiter({ perMinute: 60, burst: 3 }, () => now);
    limiter.take('t');
    limiter.take('t');
    limiter.take('t');
    const err = rateLimited(() => limiter.take('t'));
    assert.equal(err.retryAfter, 1);
    now += 1000;
    limiter.take('t');
    rateLimited(() => limiter.take('t'));
  });

  it('keeps one bucket per key', () => {
    const limiter = new RateLimiter({ perMinute: 1, burst: 1 }, () => 0);
    limiter.take(0);
    const err = rateLimited(() => limiter.take(0));
    assert.equal(err.retryAfter, 60);
    limiter.take(1);
  });

  it('rejects a non-positive rate', () => {
    assert.throws(() => new RateLimiter({ perMinute: 0 }));
  });
});

describe('WorkGate', () => {
  it('runs up to the cap, queues the next, refuses beyond the queue', async () => {
    const gate = new WorkGate(2, 1);
    const signal = new AbortController().signal;
    const r1 = await gate.acquire(signal);
    const r2 = await gate.acquire(signal);
    let third = false;
    const p3 = gate.acquire(signal).then((r) => {
      third = true;
      return r;
    });
    await assert.rejects(gate.acquire(signal), (err: LookupError) => {
      assert.equal(err.code, 'rate_limited');
      assert.equal(err.retryAfter, 1);
      return true;
    });
    assert.equal(gate.active, 2);
    assert.equal(gate.queued, 1);
    await new Promise((r) => setImmediate(r));
    assert.equal(third, false);
    r1();
    r1(); // a second release is a no-op
    const r3 = await p3;
    assert.equal(gate.active, 2);
    r2();
    r3();
    assert.equal(gate.active, 0);
  });

  it('drops a queued waiter whose request is gone', async () => {
    const gate = new WorkGate(1, 5);
    const release = await gate.acquire(new AbortController().signal);
    const gone = new AbortController();
    const waiting = gate.acquire(gone.signal);
    gone.abort();
    await assert.rejects(waiting, (err: LookupError) => err.code === 'cancelled');
    assert.equal(gate.queued, 0);
    release();
    assert.equal(gate.active, 0);
  });
});
