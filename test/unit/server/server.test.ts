import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { Agent, request } from 'undici';
import { ERROR_STATUS, LookupError, type ErrorCode } from '../../../src/contract/errors';
import { OPERATIONS } from '../../../src/contract/operations';
import { FakeServices, FIXED, untilAborted, type MethodName } from '../../support/fake-services';
import { startTestServer, type TestServer } from '../../support/serve';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: Record<string, unknown>;
}

const agent = new Agent({ connections: 64 });

async function get(
  server: TestServer,
  path: string,
  options: { auth?: string | null; method?: 'GET' | 'POST' | 'HEAD' | 'DELETE' } = {},
): Promise<Reply> {
  const headers: Record<string, string> = {};
  const auth = options.auth === undefined ? server.token : options.auth;
  if (auth !== null) headers.authorization = auth;
  const res = await request(`${server.url}${path}`, {
    method: options.method ?? 'GET',
    headers,
    dispatcher: agent,
  });
  const text = await res.body.text();
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    json = {};
  }
  return { status: res.statusCode, headers: res.headers, text, json };
}

function assertProblem(reply: Reply, code: ErrorCode, status: number = ERROR_STATUS[code]): void {
  assert.equal(reply.status, status, reply.text);
  assert.equal(reply.headers['content-type'], 'application/problem+json');
  assert.equal(reply.json.code, code);
  assert.equal(reply.json.status, status);
  assert.equal(reply.json.type, `https://hostlens.dev/problems/${code}`);
  assert.equal(typeof reply.json.title, 'string');
  assert.equal(typeof reply.json.detail, 'string');
  assert.deepEqual(Object.keys(reply.json).sort(), ['code', 'detail', 'status', 'title', 'type']);
  assert.doesNotMatch(reply.text, /\bat .*\.ts:\d+|node:internal|127\.0\.0\.1/);
}

const PATH_OF: Record<MethodName, string> = {
  query: '/domain/query?host=example.test',
  domainKeys: '/domain/domain_keys?host=example.test',
  senderPolicyRanges: '/domain/sender_policy_ranges?host=example.test',
  whois: '/domain/whois?host=example.test',
  tls: '/domain/tls?host=example.test',
  mtaSts: '/domain/mta_sts?host=example.test',
  icons: '/meta/icons?url=site.test',
  redirects: '/meta/redirects?url=site.test',
  unfurl: '/meta/unfurl?url=site.test',
  image: '/meta/image?url=site.test/a.png',
  link: '/meta/link?url=site.test',
};

describe('server', () => {
  let fake: FakeServices;
  let server: TestServer;

  beforeEach(async () => {
    fake = new FakeServices();
    server = await startTestServer(fake);
  });

  afterEach(async () => {
    await server.close();
  });

  after(async () => {
    await agent.close();
  });

  describe('routing', () => {
    for (const op of OPERATIONS) {
      it(`answers ${op.service}${op.path} with the service's JSON, byte for byte`, async () => {
        const reply = await get(server, PATH_OF[op.method]);
        assert.equal(reply.status, 200);
        assert.equal(reply.headers['content-type'], 'application/json; charset=utf-8');
        assert.equal(reply.text, JSON.stringify(FIXED[op.method]));
        assert.equal(fake.calls.length, 1);
        assert.equal(fake.calls[0].method, op.method);
      });
    }

    it('passes repeated parameters and their case through to the service', async () => {
      await get(
        server,
        '/domain/query?host=Example.TEST&types=a&types=Mx&server=%5B2001%3Adb8%3A%3A1%5D%3A53',
      );
      await get(server, '/domain/domain_keys?host=x.test&selectors=s1&selectors=s2');
      await get(server, '/meta/unfurl?url=site.test%2Fp%3Fq%3D1&language=de-CH');
      assert.deepEqual(
        fake.calls.map((c) => c.params),
        [
          { host: 'Example.TEST', types: ['a', 'Mx'], server: '[2001:db8::1]:53' },
          { host: 'x.test', selectors: ['s1', 's2'] },
          { url: 'site.test/p?q=1', language: 'de-CH' },
        ],
      );
      assert.ok(fake.calls.every((c) => c.signal instanceof AbortSignal));
    });

    it('answers /healthz without a token', async () => {
      const reply = await get(server, '/healthz', { auth: null });
      assert.equal(reply.status, 200);
      assert.deepEqual(reply.json, { status: 'ok' });
    });

    it('gives 404 not_found for unknown paths', async () => {
      for (const path of [
        '/',
        '/domain',
        '/domain/query/',
        '/meta/query?host=x',
        '/domain/%71uery?host=x',
        '/nope',
      ]) {
        const reply = await get(server, path);
        assertProblem(reply, 'not_found');
      }
      assert.equal(fake.calls.length, 0);
    });

    it('answers odd request targets with a problem, never a 500', async () => {
      const raw = async (target: string, auth = server.token) => {
        const { port } = new URL(server.url);
        const socket = connect(Number(port), '127.0.0.1');
        let text = '';
        socket.on('data', (d: Buffer) => (text += d.toString()));
        await new Promise<void>((resolve) => socket.on('connect', resolve));
        socket.end(
          `GET ${target} HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\nConnection: close\r\n\r\n`,
        );
        await new Promise<void>((resolve) => socket.on('close', () => resolve()));
        return text;
      };
      assert.match(await raw('//['), /^HTTP\/1\.1 404 [^]*"code":"not_found"/);
      assert.match(await raw('*'), /^HTTP\/1\.1 400 [^]*"code":"invalid_argument"/);
      assert.match(await raw('*', 'nope-nope-nope-nope'), /^HTTP\/1\.1 401 /);
      const absolute = await raw('http://other.test/domain/query?host=x.test');
      assert.match(absolute, /^HTTP\/1\.1 200 /);
      assert.equal(fake.calls.length, 1);
    });

    it('gives 405 with Allow: GET for other methods', async () => {
      for (const method of ['POST', 'DELETE'] as const) {
        const reply = await get(server, PATH_OF.query, { method });
        assertProblem(reply, 'method_not_allowed', 405);
        assert.equal(reply.headers.allow, 'GET');
      }
      const health = await get(server, '/healthz', { method: 'POST', auth: null });
      assert.equal(health.status, 405);
      assert.equal(fake.calls.length, 0);
    });
  });

  describe('auth', () => {
    const cases: [string, string | null][] = [
      ['no header', null],
      ['an empty header', ''],
      ['a wrong token', 'wrong-token-wrong-token-wrong-tok'],
      ['a wrong-length token', 'x'],
      ['a very long token', 'y'.repeat(4000)],
      ['Bearer with a wrong token', 'Bearer nope-nope-nope-nope-nope'],
      ['Bearer with nothing', 'Bearer'],
    ];
    for (const [label, auth] of cases) {
      it(`answers 401 unauthorized for ${label}`, async () => {
        const reply = await get(server, PATH_OF.query, { auth });
        assertProblem(reply, 'unauthorized');
        assert.equal(reply.headers['www-authenticate'], 'Bearer realm="hostlens"');
        assert.equal(fake.calls.length, 0);
      });
    }

    it('answers 401 before 404 so paths are not probed without a token', async () => {
      assertProblem(await get(server, '/secret', { auth: null }), 'unauthorized');
    });

    it('accepts the bare token and the Bearer form', async () => {
      assert.equal((await get(server, PATH_OF.whois)).status, 200);
      assert.equal(
        (await get(server, PATH_OF.whois, { auth: `Bearer ${server.token}` })).status,
        200,
      );
      assert.equal(
        (await get(server, PATH_OF.whois, { auth: `bearer  ${server.token}` })).status,
        200,
      );
    });

    it('accepts any of several configured tokens', async () => {
      await server.close();
      const tokens = ['first-token-0123456789', 'second-token-0123456789'];
      server = await startTestServer(fake, { tokens });
      for (const token of tokens)
        assert.equal((await get(server, PATH_OF.query, { auth: token })).status, 200);
    });
  });

  describe('errors', () => {
    const thrown = Object.keys(ERROR_STATUS) as ErrorCode[];
    for (const code of thrown) {
      it(`passes the service's ${code} through as a problem`, async () => {
        fake.behaviour.query = () => Promise.reject(new LookupError(code, `detail of ${code}`));
        const reply = await get(server, PATH_OF.query);
        assertProblem(reply, code);
        assert.equal(reply.json.detail, `detail of ${code}`);
      });
    }

    it('gives missing required parameters invalid_host / invalid_url', async () => {
      assertProblem(await get(server, '/domain/query'), 'invalid_host');
      assertProblem(await get(server, '/domain/whois?host='), 'invalid_host');
      assertProblem(await get(server, '/meta/icons?language=en'), 'invalid_url');
      assert.equal(fake.calls.length, 0);
    });

    it('refuses unknown and duplicated parameters with invalid_argument', async () => {
      assertProblem(await get(server, '/domain/query?host=x.test&type=MX'), 'invalid_argument');
      assertProblem(await get(server, '/domain/query?host=a.test&host=b.test'), 'invalid_argument');
      assert.equal(fake.calls.length, 0);
    });

    it('turns an unexpected exception into internal_error without its message or stack', async () => {
      fake.behaviour.whois = () =>
        Promise.reject(new Error('connect ECONNREFUSED 10.0.0.7:43 secret'));
      const reply = await get(server, PATH_OF.whois);
      assertProblem(reply, 'internal_error');
      assert.doesNotMatch(reply.text, /ECONNREFUSED|10\.0\.0\.7|secret/);
      assert.ok(server.log.some((l) => l.startsWith('error ') && l.includes('ECONNREFUSED')));
    });

    it('sends Retry-After with a service rate_limited', async () => {
      fake.behaviour.whois = () =>
        Promise.reject(
          new LookupError('rate_limited', 'registry says slow down', { retryAfter: 7 }),
        );
      const reply = await get(server, PATH_OF.whois);
      assertProblem(reply, 'rate_limited');
      assert.equal(reply.headers['retry-after'], '7');
    });

    it('answers upstream_timeout when the service overruns the deadline, and cancels it', async () => {
      await server.close();
      server = await startTestServer(fake, { requestTimeoutMs: 150 });
      fake.behaviour.query = (_p, o) => untilAborted(o.signal);
      const started = Date.now();
      const reply = await get(server, PATH_OF.query);
      assertProblem(reply, 'upstream_timeout');
      assert.ok(Date.now() - started < 2000);
      assert.equal(fake.calls[0].signal!.aborted, true);
    });
  });

  describe('limits', () => {
    it('rate-limits per token with 429 and Retry-After', async () => {
      await server.close();
      const tokens = ['token-one-0123456789', 'token-two-0123456789'];
      server = await startTestServer(fake, { tokens, rateLimit: { perMinute: 60, burst: 2 } });
      assert.equal((await get(server, PATH_OF.query, { auth: tokens[0] })).status, 200);
      assert.equal((await get(server, PATH_OF.query, { auth: tokens[0] })).status, 200);
      const limited = await get(server, PATH_OF.query, { auth: tokens[0] });
      assertProblem(limited, 'rate_limited');
      assert.equal(limited.headers['retry-after'], '1');
      assert.equal(
        (await get(server, PATH_OF.query, { auth: tokens[1] })).status,
        200,
        'other token',
      );
      assert.equal(fake.calls.length, 3);
    });

    it('caps concurrent service calls, queues the next ones and refuses beyond the queue', async () => {
      await server.close();
      server = await startTestServer(fake, { maxConcurrent: 2 });
      let running = 0;
      let peak = 0;
      const gates: (() => void)[] = [];
      fake.behaviour.query = async () => {
        running++;
        peak = Math.max(peak, running);
        await new Promise<void>((resolve) => gates.push(resolve));
        running--;
        return FIXED.query;
      };
      // 2 run, 8 queue (4 × cap), the 11th and 12th are refused.
      const replies = Array.from({ length: 12 }, () => get(server, PATH_OF.query));
      while (gates.length < 2) await new Promise((r) => setTimeout(r, 5));
      const early = await Promise.race([
        Promise.all(replies.slice(10)),
        new Promise((r) => setTimeout(r, 2000)),
      ]);
      assert.ok(Array.isArray(early), 'the overflow is answered at once');
      for (const reply of early as Reply[]) {
        assertProblem(reply, 'rate_limited');
        assert.equal(reply.headers['retry-after'], '1');
      }
      while (fake.calls.length < 10 || gates.length > 0) {
        gates.shift()?.();
        await new Promise((r) => setTimeout(r, 5));
      }
      const done = await Promise.all(replies.slice(0, 10));
      assert.ok(done.every((r) => r.status === 200));
      assert.equal(peak, 2);
    });

    it('cuts off a client that drips its headers', async () => {
      await server.close();
      server = await startTestServer(fake, { headersTimeoutMs: 300, requestTimeoutMs: 600 });
      const { port } = new URL(server.url);
      const socket = connect(Number(port), '127.0.0.1');
      let received = '';
      socket.on('data', (d: Buffer) => (received += d.toString()));
      const started = Date.now();
      const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      socket.on('error', () => undefined);
      socket.write(`GET /healthz HTTP/1.1\r\nHost: x\r\n`);
      const drip = setInterval(() => {
        if (!socket.destroyed) socket.write('X-Slow: a\r\n');
      }, 100);
      await closed;
      clearInterval(drip);
      const elapsed = Date.now() - started;
      assert.ok(elapsed < 3000, `cut off after ${elapsed} ms`);
      assert.ok(elapsed >= 250, `not before the timeout (${elapsed} ms)`);
      assert.match(received, /^HTTP\/1\.1 408/);
      assert.ok(
        server.log.some((l) => /127\.0\.0\.1 - - ERR_HTTP_REQUEST_TIMEOUT$/.test(l)),
        server.log.join('\n'),
      );
    });
  });

  describe('access log and shutdown', () => {
    it('logs one line per request with method, path, status and time, never the token', async () => {
      await get(server, PATH_OF.query);
      await get(server, `${PATH_OF.query}&types=MX`, { auth: `Bearer ${server.token}` });
      await get(server, '/nope', { auth: 'wrong-token-0123456789' });
      await new Promise((r) => setTimeout(r, 20));
      const lines = server.log.filter((l) => !l.startsWith('error '));
      assert.equal(lines.length, 3);
      assert.match(lines[0], /GET \/domain\/query\?host=example\.test 200 \d+\.\dms$/);
      assert.match(lines[2], /GET \/nope 401 /);
      for (const line of server.log) {
        assert.ok(!line.includes(server.token));
        assert.ok(!line.includes('wrong-token-0123456789'));
      }
    });

    it('never logs a token in the request target, whatever the parameter is called', async () => {
      const before = server.log.length;
      const t = server.token;
      const targets = [
        `/domain/query?host=example.test&token=${t}`,
        `/domain/query?access_token=${encodeURIComponent(t)}&host=example.test`,
        `/domain/query?host=example.test&x-api-key=${t}`,
        `/domain/query?host=${t}`,
        `/domain/query?host=example.test&server=${encodeURIComponent(t).replace(/./g, (c) => `%${c.charCodeAt(0).toString(16)}`)}`,
        `/${t}/query`,
        `/domain/query?${t}=1`,
      ];
      for (const target of targets) await get(server, target, { auth: `Bearer ${t}` });
      await new Promise((r) => setTimeout(r, 20));
      const lines = server.log.slice(before).filter((l) => !l.startsWith('error '));
      assert.equal(lines.length, targets.length);
      for (const line of lines) {
        assert.ok(!line.includes(t), line);
        assert.ok(!decodeURIComponent(line).includes(t), line);
      }
      assert.match(lines[0], /\?host=example\.test&token=\[hidden\] /);
      assert.match(lines[2], /&x-api-key=\[hidden\] /);
    });

    it('close() lets in-flight requests finish and refuses new connections', async () => {
      let release!: () => void;
      fake.behaviour.query = async () => {
        await new Promise<void>((resolve) => (release = resolve));
        return FIXED.query;
      };
      const inflight = get(server, PATH_OF.query);
      while (fake.calls.length === 0) await new Promise((r) => setTimeout(r, 5));
      const closing = server.close();
      await new Promise((r) => setTimeout(r, 50));
      await assert.rejects(
        request(`${server.url}/healthz`, { dispatcher: new Agent() }),
        (err: Error & { code?: string }) => err.code === 'ECONNREFUSED',
      );
      release();
      const reply = await inflight;
      assert.equal(reply.status, 200);
      assert.equal(reply.text, JSON.stringify(FIXED.query));
      await closing;
    });

    it('close() aborts work still running after the grace period', async () => {
      const { startServer } = await import('../../../src/server/server');
      const running = await startServer({ services: fake, tokens: [server.token], port: 0 });
      fake.behaviour.query = (_p, o) => untilAborted(o.signal);
      const inflight = request(`${running.url}${PATH_OF.query}`, {
        headers: { authorization: server.token },
        dispatcher: new Agent(),
      }).then(
        () => 'answered',
        () => 'dropped',
      );
      while (fake.calls.length === 0) await new Promise((r) => setTimeout(r, 5));
      const started = Date.now();
      await running.close(100);
      assert.ok(Date.now() - started < 2000);
      assert.equal(fake.calls[0].signal!.aborted, true);
      assert.ok(['answered', 'dropped'].includes(await inflight));
    });
  });
});
