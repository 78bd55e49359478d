// `hostlens serve --allow-cidr` (issue 29): an operator opens one named private range to the
// guard and nothing else, and serve() wires what the guard allows into the response cache's
// scope, so instances that reach different addresses never share cached answers.
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { Agent, request } from 'undici';
import {
  allowedRanges,
  cacheScope,
  serve,
  type CreateServices,
  type ServeArgs,
} from '../../../src/server/main';
import { EmbeddedServices } from '../../../src/services/embedded';
import { FakeServices } from '../../support/fake-services';
import { serveHarness } from '../../support/serve-io';
import { startRedisServer, type RedisFixture } from '../../support/redis-server';
import { startWebServer, type WebFixture } from '../../support/web-server';
import { loadFixtureZones, startDnsServer, type DnsFixture } from '../../support/dns-server';

const TOKEN = 'allow-cidr-token-0123456789abcdef';

interface Running {
  url: string;
  out: string[];
  err: string[];
  stop(): Promise<number>;
}

/** serve() as the CLI runs it, until stop(); the listening URL once it listens. */
async function start(
  argv: ServeArgs,
  env: Record<string, string>,
  createServices: CreateServices,
): Promise<Running> {
  const { io, out, err, signals, listening } = serveHarness(500);
  io.server = { warmUp: false, log: (l) => out.push(l) };
  const done = serve({ port: 0, ...argv }, { HOSTLENS_TOKENS: TOKEN, ...env }, createServices, io);
  const url = await Promise.race([listening, done.then((code) => `exited ${code}`)]);
  assert.match(url, /^http:/, err.join('\n'));
  return {
    url,
    out,
    err,
    stop: () => {
      signals.emit('SIGTERM');
      return done;
    },
  };
}

const agent = new Agent();

async function get(base: string, path: string): Promise<{ status: number; code?: string }> {
  const res = await request(`${base}${path}`, {
    headers: { authorization: TOKEN },
    dispatcher: agent,
  });
  const body = (await res.body.json()) as { code?: string };
  return { status: res.statusCode, code: body.code };
}

describe('hostlens serve --allow-cidr', function () {
  this.timeout(30_000);

  after(() => agent.close());

  it('reads ranges from the flag (repeated or by commas), else HOSTLENS_ALLOW_CIDR, in canonical form', () => {
    assert.deepEqual(allowedRanges({}, {}), []);
    assert.deepEqual(
      allowedRanges({ allowCidr: ['10.1.2.3/8, 192.168.7.0/24', 'FD00:0:0::1/64'] }, {}),
      ['10.0.0.0/8', '192.168.7.0/24', 'fd00::/64'],
    );
    assert.deepEqual(allowedRanges({}, { HOSTLENS_ALLOW_CIDR: '172.16.0.0/12,' }), [
      '172.16.0.0/12',
    ]);
    // The flag wins over the variable; the same range twice is one.
    assert.deepEqual(
      allowedRanges(
        { allowCidr: ['10.0.0.0/8', '10.9.9.9/8'] },
        { HOSTLENS_ALLOW_CIDR: '172.16.0.0/12' },
      ),
      ['10.0.0.0/8'],
    );
  });

  for (const bad of ['10.0.0.0', '10.0.0.0/33', 'fd00::/129', 'intranet/8', '10.0.0.0/8/8', '*']) {
    it(`refuses to start with --allow-cidr ${bad}`, async () => {
      let created = false;
      const err: string[] = [];
      const code = await serve(
        { allowCidr: [bad] },
        { HOSTLENS_TOKENS: TOKEN },
        () => ((created = true), new FakeServices()),
        { out: () => undefined, err: (l) => err.push(l), signals: new EventEmitter() },
      );
      assert.equal(code, 2);
      assert.equal(created, false);
      assert.match(err[0], /--allow-cidr takes address ranges/);
    });
  }

  it('names the cache scope by what the guard allows', () => {
    assert.equal(cacheScope(true, []), 'guarded');
    assert.equal(cacheScope(false, []), 'open');
    assert.equal(cacheScope(false, ['10.0.0.0/8']), 'open');
    assert.equal(
      cacheScope(true, ['192.168.0.0/16', '10.0.0.0/8']),
      'guarded+10.0.0.0/8,192.168.0.0/16',
    );
  });

  describe('opens only the named range', () => {
    let inside: WebFixture;
    let outside: WebFixture;
    let dns: DnsFixture;
    let running: Running;

    before(async () => {
      [inside, outside, dns] = await Promise.all([
        startWebServer({ host: '127.0.0.2', favicon: false }),
        startWebServer({ host: '127.0.0.1', favicon: false }),
        startDnsServer({ records: loadFixtureZones(), host: '127.0.0.3' }),
      ]);
      running = await start(
        { allowCidr: ['127.0.0.2/32'] },
        {},
        ({ blockPrivate, allowCidrs }) =>
          new EmbeddedServices({
            blockPrivate,
            dnsTimeoutMs: 500,
            dnsTries: 1,
            ...(allowCidrs ? { allowCidrs } : {}),
          }),
      );
    });

    after(async () => {
      await running?.stop();
      await Promise.all([inside?.close(), outside?.close(), dns?.close()]);
    });

    it('says so when it starts', () => {
      assert.ok(
        running.out.some((l) => l.includes('allowed ranges: 127.0.0.2/32')),
        running.out.join('\n'),
      );
    });

    it('fetches a page inside the range', async () => {
      const reply = await get(
        running.url,
        `/meta/redirects?url=${encodeURIComponent(inside.url('/final'))}`,
      );
      assert.equal(reply.status, 200);
      assert.ok(inside.requests.length > 0);
    });

    it('refuses every other loopback address, before any connection', async () => {
      const asked = outside.requests.length;
      for (const op of ['unfurl', 'redirects', 'icons']) {
        const reply = await get(
          running.url,
          `/meta/${op}?url=${encodeURIComponent(outside.url('/final'))}`,
        );
        assert.deepEqual(reply, { status: 403, code: 'blocked_target' }, op);
      }
      assert.equal(outside.requests.length, asked);
      const ns = await get(running.url, `/domain/query?host=example.test&server=${dns.address}`);
      assert.deepEqual(ns, { status: 403, code: 'blocked_target' });
      assert.equal(dns.queries.length, 0);
    });

    it('refuses a redirect from inside the range to outside it', async () => {
      const target = encodeURIComponent(outside.url('/final'));
      const hop = inside.url(`/redirect-to?target=${target}`);
      const asked = outside.requests.length;
      const reply = await get(running.url, `/meta/unfurl?url=${encodeURIComponent(hop)}`);
      assert.deepEqual(reply, { status: 403, code: 'blocked_target' });
      assert.equal(outside.requests.length, asked);
    });
  });

  describe('wires the cache scope: instances share cached answers only with their own kind', () => {
    let redis: RedisFixture;
    const instances: Running[] = [];

    before(async function () {
      this.timeout(30_000);
      redis = await startRedisServer();
    });

    after(async () => {
      for (const i of instances) await i.stop();
      await redis?.close();
    });

    it('an answer cached by an open instance is not served by a guarded one, and the reverse', async () => {
      const env = { HOSTLENS_REDIS_URL: redis.url, HOSTLENS_CACHE: '1' };
      const fakes = [
        new FakeServices(),
        new FakeServices(),
        new FakeServices(),
        new FakeServices(),
      ];
      const [open, guarded, guardedToo, ranged] = await Promise.all([
        start({ allowPrivate: true }, env, () => fakes[0]),
        start({}, env, () => fakes[1]),
        start({}, env, () => fakes[2]),
        start({ allowCidr: ['10.0.0.0/8'] }, env, () => fakes[3]),
      ]);
      instances.push(open, guarded, guardedToo, ranged);
      // Every instance has its Redis link up before the first answer is cached.
      for (let i = 0; i < 100; i++) {
        if (instances.every((s) => s.out.some((l) => l.includes('redis: connected')))) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      const path = '/domain/whois?host=cache-scope.example';
      assert.equal((await get(open.url, path)).status, 200);
      assert.equal(fakes[0].calls.length, 1);
      // The SET goes out before the answer, on the link the next admission uses: asked
      // again, the instance serves the stored answer.
      assert.equal((await get(open.url, path)).status, 200);
      assert.equal(fakes[0].calls.length, 1, 'the open instance serves its cached answer');
      assert.equal((await get(guarded.url, path)).status, 200);
      assert.equal(fakes[1].calls.length, 1, 'the guarded instance asked its own services');
      assert.equal((await get(guardedToo.url, path)).status, 200);
      assert.equal(
        fakes[2].calls.length,
        0,
        'a second guarded instance shares the first one’s answer',
      );
      assert.equal((await get(ranged.url, path)).status, 200);
      assert.equal(fakes[3].calls.length, 1, 'an instance with an opened range has its own scope');
    });
  });
});
