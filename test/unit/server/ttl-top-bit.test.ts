// A TTL with the top bit set, end to end (issue 29): RFC 2181 section 8 reads it as zero. The
// engine answers 0, `hostlens serve` answers 0, and its Redis cache keeps no such answer (it
// was once served for 136 years).
import assert from 'node:assert/strict';
import { Agent, request } from 'undici';
import { EmbeddedServices } from '../../../src/services/embedded';
import { startHostileDns, type HostileFixture } from '../../support/hostile-upstreams';
import { startRedisServer, type RedisFixture } from '../../support/redis-server';
import { startTestServer, type TestServer } from '../../support/serve';

describe('a TTL with the top bit set, through the engine and the service', function () {
  this.timeout(30_000);
  let dns: HostileFixture;
  let redis: RedisFixture;
  let server: TestServer;
  const agent = new Agent();
  const engine = () => new EmbeddedServices({ dnsTimeoutMs: 1000, dnsTries: 1 });

  before(async () => {
    [dns, redis] = await Promise.all([startHostileDns(), startRedisServer()]);
    server = await startTestServer(engine(), { redisUrl: redis.url, cache: true });
    for (let i = 0; i < 100 && !server.log.some((l) => l.includes('redis: connected')); i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
  });

  after(async () => {
    await server?.close();
    await agent.close();
    await Promise.all([dns?.close(), redis?.close()]);
  });

  const ttls: Array<[string, number]> = [
    ['top', 0],
    ['ttl2147483648', 0],
    ['ttl2147483647', 2147483647],
    ['ttl300', 300],
  ];

  for (const [label, want] of ttls) {
    it(`the engine reads the TTL of "${label}" as ${want}`, async () => {
      const answer = await engine().query({
        host: `${label}.ttl.test`,
        types: ['A'],
        server: dns.address,
      });
      assert.deepEqual(
        answer.records.map((r) => r.ttl),
        [want],
      );
    });
  }

  const ask = async (host: string) => {
    const res = await request(
      `${server.url}/domain/query?host=${host}&types=A&server=${dns.address}`,
      { headers: { authorization: server.token }, dispatcher: agent },
    );
    assert.equal(res.statusCode, 200);
    return (await res.body.json()) as { records: Array<{ ttl: number }> };
  };

  it('the service answers 0 for 4294967295, and does not cache that answer', async () => {
    const asked = () => dns.seen.filter((q) => q.endsWith('top.ttl.test')).length;
    const before = asked();
    for (let i = 0; i < 3; i++) {
      const answer = await ask('top.ttl.test');
      assert.deepEqual(
        answer.records.map((r) => r.ttl),
        [0],
      );
    }
    assert.equal(asked() - before, 3, 'each request went to the nameserver');
  });

  it('the service caches an ordinary TTL (so the test above can fail)', async () => {
    const asked = () => dns.seen.filter((q) => q.endsWith('ttl300.ttl.test')).length;
    const before = asked();
    for (let i = 0; i < 3; i++) await ask('ttl300.ttl.test');
    assert.equal(asked() - before, 1);
  });
});
