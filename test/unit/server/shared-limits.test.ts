// Several instances, one budget (issue 15): two servers and a real redis-server on loopback.
// One token's burst is shared; killing Redis mid-run fails no request and limits go local;
// bringing it back makes them shared again. Also the per-token concurrency budget across
// instances and the response cache.
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';
import { Agent, request } from 'undici';
import { FakeServices, FIXED } from '../../support/fake-services';
import {
  commandsSentDuring,
  redisServerAvailable,
  startRedisServer,
  type RedisFixture,
} from '../../support/redis-server';
import { startTestServer, type TestServer } from '../../support/serve';
import { serve } from '../../../src/server/main';
import type { ServerOptions } from '../../../src/server/server';

const TOKEN = 'shared-token-0123456789abcdef';
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('shared limits through Redis', function () {
  this.timeout(60_000);
  let redis: RedisFixture;
  let servers: TestServer[] = [];
  const agent = new Agent({ connections: 64 });

  before(async function () {
    if (!(await redisServerAvailable())) {
      console.log('    (skipped: no redis-server here; .ci/run installs the Debian package)');
      this.skip();
    }
    redis = await startRedisServer();
  });

  afterEach(async () => {
    await Promise.all(servers.map((s) => s.close()));
    servers = [];
    // A fresh budget for the next test.
    if (redis) {
      const admin = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 0 });
      try {
        await admin.connect();
        await admin.flushall();
      } catch {
        // Redis may be down in the middle of a failed test; the next test starts it.
      } finally {
        admin.disconnect();
      }
    }
  });

  after(async () => {
    await redis?.close();
    await agent.close();
  });

  async function instances(
    count: number,
    fake: FakeServices,
    options: Partial<ServerOptions> = {},
  ): Promise<TestServer[]> {
    servers = await Promise.all(
      Array.from({ length: count }, () =>
        startTestServer(fake, {
          tokens: [TOKEN],
          redisUrl: redis.url,
          // Refill is negligible during a test: 100 at once, then one every 10 s.
          rateLimit: { perMinute: 6, burst: 100 },
          ...options,
        }),
      ),
    );
    for (const s of servers) await until(s, 'hostlens_redis_up 1');
    return servers;
  }

  async function metrics(server: TestServer): Promise<string> {
    const res = await request(`${server.url}/metrics`, {
      headers: { authorization: TOKEN },
      dispatcher: agent,
    });
    return res.body.text();
  }

  async function until(server: TestServer, line: string, ms = 15_000): Promise<void> {
    const deadline = Date.now() + ms;
    const pattern = new RegExp(`^${line}$`, 'm');
    while (!pattern.test(await metrics(server))) {
      if (Date.now() > deadline) assert.fail(`${server.url} never reported "${line}"`);
      await wait(50);
    }
  }

  interface Outcome {
    status: number;
    code?: string;
    retryAfter?: string;
  }

  async function ask(server: TestServer, path = '/domain/query?host=x.test'): Promise<Outcome> {
    const res = await request(`${server.url}${path}`, {
      headers: { authorization: TOKEN },
      dispatcher: agent,
    });
    const text = await res.body.text();
    const retry = res.headers['retry-after'];
    return {
      status: res.statusCode,
      code: res.statusCode === 200 ? undefined : (JSON.parse(text) as { code: string }).code,
      retryAfter: typeof retry === 'string' ? retry : undefined,
    };
  }

  /** `n` requests spread over the servers in turn, a few at a time. */
  async function burst(over: TestServer[], n: number): Promise<Outcome[]> {
    const out: Outcome[] = [];
    for (let i = 0; i < n; i += 10) {
      const batch = Array.from({ length: Math.min(10, n - i) }, (_, j) =>
        ask(over[(i + j) % over.length]),
      );
      out.push(...(await Promise.all(batch)));
    }
    return out;
  }

  const refused = (outcomes: Outcome[]) => outcomes.filter((o) => o.status === 429);

  it('shares one token budget over two instances: 150 requests, about 50 refused', async () => {
    const both = await instances(2, new FakeServices());
    const outcomes = await burst(both, 150);
    const limited = refused(outcomes);
    assert.ok(limited.length >= 48 && limited.length <= 50, `${limited.length} refused`);
    for (const o of limited) {
      assert.equal(o.code, 'rate_limited');
      assert.ok(Number(o.retryAfter) >= 1, `Retry-After ${o.retryAfter}`);
    }
    assert.ok(outcomes.every((o) => o.status === 200 || o.status === 429));
    for (const s of both)
      assert.match(await metrics(s), /hostlens_refusals_total\{reason="rate_limit"\} \d+/);
  });

  it('gives every instance its own budget without Redis (the problem being solved)', async () => {
    servers = await Promise.all(
      [0, 1].map(() =>
        startTestServer(new FakeServices(), {
          tokens: [TOKEN],
          rateLimit: { perMinute: 6, burst: 100 },
        }),
      ),
    );
    assert.equal(refused(await burst(servers, 150)).length, 0);
  });

  it('falls back to local limits when Redis dies, failing nothing, and shares again when it is back', async () => {
    const both = await instances(2, new FakeServices());
    // Spend the shared budget.
    assert.equal(refused(await burst(both, 100)).length, 0);
    assert.equal(refused(await burst(both, 10)).length, 10);

    // Kill Redis while requests are running.
    const during = burst(both, 60);
    await wait(5);
    await redis.stop();
    const outcomes = [...(await during), ...(await burst(both, 40))];
    assert.ok(
      outcomes.every((o) => o.status === 200 || (o.status === 429 && o.code === 'rate_limited')),
      JSON.stringify(outcomes.filter((o) => o.status !== 200 && o.status !== 429)),
    );
    for (const s of both) {
      await until(s, 'hostlens_redis_up 0');
      assert.ok(
        s.log.some((l) => /redis: unreachable .*degraded/.test(l)),
        s.log.join('\n'),
      );
    }
    // Local now: each instance has a fresh budget of its own, so requests pass again.
    const local = await burst(both, 40);
    assert.equal(refused(local).length, 0, 'limits went local');

    await redis.start();
    for (const s of both) await until(s, 'hostlens_redis_up 1');
    assert.ok(both.every((s) => s.log.some((l) => /redis: connected; limits are shared/.test(l))));
    // Shared again (the restarted Redis is empty: one fresh budget of 100 for both).
    const shared = refused(await burst(both, 150)).length;
    assert.ok(shared >= 48 && shared <= 50, `${shared} refused after Redis came back`);
  });

  it('falls back within the command timeout when Redis hangs, and shares again when it answers', async () => {
    const both = await instances(2, new FakeServices());
    assert.equal(refused(await burst(both, 100)).length, 0);
    redis.pause();
    let outcomes: Outcome[];
    try {
      outcomes = await burst(both, 40);
    } finally {
      redis.resume();
    }
    // Nothing failed; the shared budget was spent, so every answer that passed came from the
    // local limits.
    assert.ok(
      outcomes.every((o) => o.status === 200),
      JSON.stringify(outcomes),
    );
    for (const s of both) {
      assert.ok(
        s.log.some((l) => /redis: unreachable \(command timeout\)/.test(l)),
        s.log.join('\n'),
      );
      await until(s, 'hostlens_redis_up 1');
    }
    // Shared again: the budget in Redis is still spent.
    const after = await burst(both, 10);
    assert.equal(refused(after).length, 10);
  });

  it('starts and serves with local limits when Redis is unreachable from the start', async () => {
    const port = redis.port;
    await redis.stop();
    try {
      const lone = await startTestServer(new FakeServices(), {
        tokens: [TOKEN],
        redisUrl: `redis://127.0.0.1:${port}`,
        rateLimit: { perMinute: 6, burst: 100 },
      });
      servers = [lone];
      const outcomes = await burst([lone], 110);
      assert.equal(refused(outcomes).length, 10, 'the local budget of 100 applies');
      await until(lone, 'hostlens_redis_up 0');
      assert.match(await metrics(lone), /^hostlens_redis_configured 1$/m);
      assert.ok(
        lone.log.some((l) => /redis: unreachable \(ECONNREFUSED\).*degraded/.test(l)),
        lone.log.join('\n'),
      );
    } finally {
      await redis.start();
    }
  });

  it('keeps one concurrency budget per token across instances', async () => {
    const fake = new FakeServices();
    const gates: Array<() => void> = [];
    fake.behaviour.query = async () => {
      await new Promise<void>((r) => gates.push(r));
      return FIXED.query;
    };
    const both = await instances(2, fake, { maxOpenPerToken: 4 });
    const pending = [0, 1, 2, 0, 1, 2].map((i) => ask(both[i % 2]));
    while (gates.length < 4) await wait(5);
    await wait(50);
    assert.equal(gates.length, 4, 'no more than four reach the service');
    while (gates.length > 0) gates.shift()?.();
    const outcomes = await Promise.all(pending);
    const over = refused(outcomes);
    assert.equal(over.length, 2);
    assert.ok(over.every((o) => o.code === 'rate_limited' && o.retryAfter === '1'));
    // Every slot came back.
    delete fake.behaviour.query;
    const again = await Promise.all([0, 1, 2, 3].map((i) => ask(both[i % 2])));
    assert.ok(again.every((o) => o.status === 200));
  });

  it('is switched on for `hostlens serve` by HOSTLENS_REDIS_URL and HOSTLENS_CACHE', async () => {
    const out: string[] = [];
    const signals = new EventEmitter();
    let onListening!: (url: string) => void;
    const listening = new Promise<string>((r) => (onListening = r));
    const fake = new FakeServices();
    const exit = serve(
      { port: 0 },
      { HOSTLENS_TOKENS: TOKEN, HOSTLENS_REDIS_URL: redis.url, HOSTLENS_CACHE: '1' },
      () => fake,
      { out: (l) => out.push(l), err: (l) => out.push(l), signals, onListening },
    );
    const url = await listening;
    assert.match(out[0], /; limits shared through Redis, cache on$/);
    const served = { url } as TestServer;
    await until(served, 'hostlens_redis_up 1');
    assert.equal((await ask(served)).status, 200);
    await wait(50);
    assert.equal((await ask(served)).status, 200);
    assert.equal(fake.calls.length, 1, 'the second answer came from the cache');
    signals.emit('SIGTERM');
    assert.equal(await exit, 0);
    assert.ok(out.every((l) => !l.includes(TOKEN)));
  });

  describe('response cache', () => {
    it('answers a repeated request from Redis on any instance, for no longer than the records TTL', async () => {
      const fake = new FakeServices();
      const both = await instances(2, fake, { cache: true, cacheWebTtlMs: 5_000 });
      const first = await request(`${both[0].url}/domain/query?host=x.test&types=A&types=MX`, {
        headers: { authorization: TOKEN },
        dispatcher: agent,
      });
      const firstBody = await first.body.text();
      await wait(50);
      // Same request, other instance, parameters in another order and case.
      const second = await request(`${both[1].url}/domain/query?types=a&host=x.test&types=mx`, {
        headers: { authorization: TOKEN },
        dispatcher: agent,
      });
      assert.equal(await second.body.text(), firstBody);
      assert.equal(fake.calls.length, 1, 'the second answer came from the cache');
      assert.match(await metrics(both[1]), /hostlens_cache_lookups_total\{result="hit"\} 1/);

      const admin = new Redis(redis.url);
      try {
        const keys = await admin.keys('hostlens:cache:*');
        assert.equal(keys.length, 1);
        const pttl = await admin.pttl(keys[0]);
        // FIXED.query's shortest TTL is 60 s.
        assert.ok(pttl > 0 && pttl <= 60_000, `PTTL ${pttl}`);
        await ask(both[0], '/meta/unfurl?url=site.test');
        const web = (await admin.keys('hostlens:cache:*:meta*'))[0];
        const webTtl = await admin.pttl(web);
        assert.ok(webTtl > 0 && webTtl <= 5_000, `web PTTL ${webTtl}`);
      } finally {
        admin.disconnect();
      }
    });

    it('costs one Redis command a cached request (limits and cache in one script)', async () => {
      const fake = new FakeServices();
      const [one] = await instances(1, fake, { cache: true });
      const path = '/domain/query?host=x.test&types=A';
      await ask(one, path);
      await wait(50); // the cache write is not awaited by the request
      const sent = await commandsSentDuring(redis.url, async () => {
        for (let i = 0; i < 10; i++) await ask(one, path);
      });
      assert.equal(fake.calls.length, 1, 'ten of eleven came from the cache');
      assert.deepEqual(sent, Array(10).fill('evalsha'), 'one script a cached request');
    });

    it('still refuses a cached answer past the rate', async () => {
      const fake = new FakeServices();
      const [one] = await instances(1, fake, {
        cache: true,
        rateLimit: { perMinute: 6, burst: 3 },
        maxOpenPerToken: 1,
      });
      const path = '/domain/query?host=x.test&types=A';
      assert.equal((await ask(one, path)).status, 200);
      await wait(50);
      assert.equal((await ask(one, path)).status, 200);
      assert.equal((await ask(one, path)).status, 200);
      assert.equal((await ask(one, path)).status, 429, 'the burst of 3 is spent, cached or not');
      assert.match(await metrics(one), /hostlens_refusals_total\{reason="rate_limit"\} 1/);
    });

    it('never serves a guarded instance what an unguarded one cached (the scope is in the key)', async () => {
      const fake = new FakeServices();
      const scoped = await Promise.all(
        ['open', 'guarded', 'guarded'].map((cacheScope) =>
          startTestServer(fake, {
            tokens: [TOKEN],
            redisUrl: redis.url,
            cache: true,
            cacheScope,
          }),
        ),
      );
      servers = scoped;
      for (const s of scoped) await until(s, 'hostlens_redis_up 1');
      const [open, guarded, guardedToo] = scoped;
      await ask(open, '/domain/query?host=scoped.test&types=A');
      await wait(50);
      await ask(guarded, '/domain/query?host=scoped.test&types=A');
      assert.equal(fake.calls.length, 2, 'the guarded instance did its own look-up');
      await wait(50);
      await ask(guardedToo, '/domain/query?host=scoped.test&types=A');
      assert.equal(fake.calls.length, 2, 'instances of one policy share');
    });

    it('never caches errors, nor answers whose freshness it cannot tell', async () => {
      const fake = new FakeServices();
      const both = await instances(1, fake, { cache: true });
      await ask(both[0], '/domain/whois?host=x.test');
      await ask(both[0], '/domain/sender_policy_ranges?host=x.test');
      await ask(both[0], '/domain/sender_policy_ranges?host=x.test');
      fake.behaviour.query = () => Promise.reject(new Error('boom'));
      await ask(both[0]);
      await ask(both[0]);
      // whois once; SPF twice (no TTLs in it); the failing query twice.
      assert.deepEqual(
        fake.calls.map((c) => c.method),
        ['whois', 'senderPolicyRanges', 'senderPolicyRanges', 'query', 'query'],
      );
    });
  });
});
