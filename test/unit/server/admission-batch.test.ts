// Batched admissions (issue 28): the admissions asked for in one turn of the event loop go to
// Redis as one script, and each is decided as if it had been sent alone, in the order asked: the
// rate first, then the cached answer, then a slot. A real redis-server on loopback; MONITOR
// counts what the client sends.
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import {
  ConcurrencyBudget,
  LimitRefusal,
  LocalLimits,
  RateLimiter,
  type Admission,
} from '../../../src/server/limits';
import { RedisLink } from '../../../src/server/redis';
import { SharedLimits } from '../../../src/server/shared-limits';
import {
  commandsSentDuring,
  redisServerAvailable,
  startRedisServer,
  type RedisFixture,
} from '../../support/redis-server';

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What an admission came to: a cached answer, a slot, or which limit refused it. */
type Outcome = string;

function outcome(admission: Promise<Admission>): Promise<Outcome> {
  return admission.then(
    (a) => (a.cached !== undefined ? `cached:${a.cached}` : 'slot'),
    (err: unknown) =>
      err instanceof LimitRefusal ? `refused:${err.limit}` : `error:${String(err)}`,
  );
}

describe('batched admissions through Redis', function () {
  this.timeout(30_000);
  let redis: RedisFixture;
  let admin: Redis;
  let link: RedisLink | undefined;

  before(async function () {
    if (!(await redisServerAvailable())) {
      console.log('    (skipped: no redis-server here; .ci/run installs the Debian package)');
      this.skip();
    }
    redis = await startRedisServer();
    admin = new Redis(redis.url);
  });

  afterEach(async () => {
    await link?.close();
    link = undefined;
    await admin?.flushall();
  });

  after(async () => {
    admin?.disconnect();
    await redis?.close();
  });

  async function limits(burst: number, maxOpen: number): Promise<SharedLimits> {
    link = new RedisLink({ url: redis.url });
    // Refill is negligible during a test: one request a minute.
    const local = new LocalLimits(
      new RateLimiter({ perMinute: 1, burst }),
      new ConcurrencyBudget(maxOpen),
    );
    const shared = new SharedLimits(link, local, 30_000);
    for (let i = 0; !link.usable; i++) {
      if (i > 200) assert.fail('redis never became usable');
      await wait(10);
    }
    return shared;
  }

  it('sends the admissions of one turn as one script, each decided in order as if alone', async () => {
    const shared = await limits(4, 64);
    let outcomes: Outcome[] = [];
    const sent = await commandsSentDuring(redis.url, async () => {
      // Token a asks seven times, token b three times, interleaved.
      const keys = ['a', 'b', 'a', 'a', 'b', 'a', 'a', 'b', 'a', 'a'];
      outcomes = await Promise.all(keys.map((k) => outcome(shared.admit(k, undefined))));
    });
    assert.equal(sent.filter((c) => c === 'evalsha' || c === 'eval').length, 1, sent.join(' '));
    assert.deepEqual(outcomes, [
      ...['slot', 'slot', 'slot', 'slot', 'slot', 'slot'],
      ...['refused:rate', 'slot', 'refused:rate', 'refused:rate'],
    ]);
    // The buckets were written back once, spent: a's is empty, b's holds one.
    const a = Number(await admin.hget('hostlens:rate:a', 'tokens'));
    const b = Number(await admin.hget('hostlens:rate:b', 'tokens'));
    assert.ok(a < 1 && b >= 1 && b < 2, `a ${a}, b ${b}`);
    assert.equal(await admin.zcard('hostlens:open:a'), 4);
    assert.equal(await admin.zcard('hostlens:open:b'), 3);
    // The next turn starts from what the last one left.
    assert.equal(await outcome(shared.admit('a', undefined)), 'refused:rate');
  });

  it('answers from the cache without a slot, and refuses past the concurrency budget', async () => {
    const shared = await limits(100, 2);
    await admin.set('hostlens:cache:hit', '{"cached":true}');
    await admin.set('hostlens:cache:other', '{"other":true}');
    const asked: [string, string | undefined][] = [
      ['t', 'hostlens:cache:miss'],
      ['t', 'hostlens:cache:hit'],
      ['t', undefined],
      ['t', 'hostlens:cache:other'],
      ['t', 'hostlens:cache:hit'],
      ['t', 'hostlens:cache:miss'],
    ];
    const outcomes = await Promise.all(asked.map(([k, c]) => outcome(shared.admit(k, c))));
    assert.deepEqual(outcomes, [
      'slot',
      'cached:{"cached":true}',
      'slot',
      'cached:{"other":true}',
      'cached:{"cached":true}',
      'refused:budget',
    ]);
    assert.equal(await admin.zcard('hostlens:open:t'), 2, 'cached answers take no slot');
    // A refused request spent its rate like any other: six taken from 100.
    const tokens = Number(await admin.hget('hostlens:rate:t', 'tokens'));
    assert.ok(tokens >= 94 && tokens < 95, `tokens ${tokens}`);
  });

  it('frees a slot for the next batch when a request leaves', async () => {
    const shared = await limits(100, 1);
    const first = await shared.admit('t', undefined);
    assert.equal(await outcome(shared.admit('t', undefined)), 'refused:budget');
    assert.ok(first.cached === undefined);
    first.leave();
    await wait(50);
    assert.equal(await outcome(shared.admit('t', undefined)), 'slot');
  });

  it('counts a slot freed before a request asks as free, even when its batch was already due', async () => {
    // Under load a turn often reads another request first (its batch is then due), then ends a
    // request (its slot is released), then reads a request for that slot. The release came
    // before the ask: the batch must not overtake it (50 clients under a budget of 64 were
    // refused when releases waited for the client's pipeline).
    const shared = await limits(100, 1);
    const first = await shared.admit('t', undefined);
    assert.ok(first.cached === undefined);
    const other = outcome(shared.admit('u', undefined));
    first.leave();
    const next = outcome(shared.admit('t', undefined));
    assert.deepEqual(await Promise.all([other, next]), ['slot', 'slot']);
  });

  it('splits a turn of more admissions than a batch holds, and decides every one', async () => {
    const shared = await limits(250, 1_000);
    let outcomes: Outcome[] = [];
    const sent = await commandsSentDuring(redis.url, async () => {
      outcomes = await Promise.all(
        Array.from({ length: 300 }, () => outcome(shared.admit('t', undefined))),
      );
    });
    const scripts = sent.filter((c) => c === 'evalsha' || c === 'eval').length;
    assert.ok(scripts >= 3 && scripts <= 4, `${scripts} scripts for 300 admissions`);
    assert.equal(outcomes.filter((o) => o === 'slot').length, 250);
    assert.equal(outcomes.filter((o) => o === 'refused:rate').length, 50);
    assert.deepEqual(outcomes.slice(0, 250), Array(250).fill('slot'), 'in the order asked');
  });

  it('decides a batch on this instance when Redis hangs, failing none of it', async () => {
    const shared = await limits(3, 64);
    redis.pause();
    try {
      const started = Date.now();
      const outcomes = await Promise.all(
        Array.from({ length: 5 }, () => outcome(shared.admit('t', undefined))),
      );
      // The local budget: the first three of its burst of 3, then refusals, after the timeout.
      assert.deepEqual(outcomes, ['slot', 'slot', 'slot', 'refused:rate', 'refused:rate']);
      assert.ok(Date.now() - started < 2_000, 'within the command timeout');
      assert.equal(link?.current, 'local');
    } finally {
      redis.resume();
    }
  });
});
