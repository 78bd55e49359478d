import assert from 'node:assert/strict';
import { callDeadline } from '../../../src/services/deadline';

describe('callDeadline', function () {
  it('fires at the deadline and says so', async function () {
    const deadline = callDeadline(20, undefined);
    await new Promise((r) => setTimeout(r, 40));
    assert.equal(deadline.signal.aborted, true);
    assert.equal(deadline.expired(), true);
    deadline.dispose();
  });

  it('fires when the caller cancels, before or during the call, with its reason', function () {
    const before = new AbortController();
    before.abort(new Error('gone'));
    const early = callDeadline(10_000, before.signal);
    assert.equal(early.signal.aborted, true);
    assert.equal((early.signal.reason as Error).message, 'gone');
    assert.equal(early.expired(), false);
    early.dispose();
    const during = new AbortController();
    const late = callDeadline(10_000, during.signal);
    assert.equal(late.signal.aborted, false);
    during.abort();
    assert.equal(late.signal.aborted, true);
    assert.equal(late.expired(), false);
    late.dispose();
  });

  it('lets go of the timer and the caller once disposed', async function () {
    const caller = new AbortController();
    const deadline = callDeadline(20, caller.signal);
    deadline.dispose();
    caller.abort();
    await new Promise((r) => setTimeout(r, 40));
    assert.equal(deadline.signal.aborted, false);
  });
});
