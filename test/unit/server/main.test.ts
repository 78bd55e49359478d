import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Agent, request } from 'undici';
import { loadTokens, serve, tokenLimitOptions, type ServeArgs } from '../../../src/server/main';
import { startServer } from '../../../src/server/server';
import { FakeServices, FIXED } from '../../support/fake-services';
import { serveHarness } from '../../support/serve-io';

const TOKEN_A = 'token-a-0123456789abcdef';
const TOKEN_B = 'token-b-0123456789abcdef';

describe('serve()', () => {
  let dir: string;
  const agent = new Agent();

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'hostlens-serve-'));
  });

  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    await agent.close();
  });

  it('reads tokens from HOSTLENS_TOKENS and the tokens file, skipping comments', async () => {
    const file = join(dir, 'tokens');
    writeFileSync(file, `# operators\n${TOKEN_B}\n\n  # old one below\n${TOKEN_A}\r\n`);
    assert.deepEqual(await loadTokens({ tokensFile: file }, { HOSTLENS_TOKENS: ` ${TOKEN_A} ,` }), [
      TOKEN_A,
      TOKEN_B,
    ]);
    assert.deepEqual(await loadTokens({}, {}), []);
  });

  const refusals: [string, ServeArgs, Record<string, string>, RegExp][] = [
    ['no tokens at all', {}, {}, /no API tokens configured.*HOSTLENS_TOKENS.*--tokens-file/],
    ['only blank tokens', {}, { HOSTLENS_TOKENS: ' , ,' }, /no API tokens configured/],
    [
      'a missing tokens file',
      { tokensFile: '/nonexistent/t' },
      {},
      /cannot read the tokens file.*ENOENT/,
    ],
    ['a weak token', {}, { HOSTLENS_TOKENS: `${TOKEN_A},weak-secret` }, /token #2: .*at least 16/],
    ['a bad port', { port: '80a' }, { HOSTLENS_TOKENS: TOKEN_A }, /--port must be a number/],
    [
      'an unknown log format',
      { logFormat: 'xml' },
      { HOSTLENS_TOKENS: TOKEN_A },
      /--log-format must be text or json/,
    ],
    [
      'a bad grace period',
      { graceSeconds: '10s' },
      { HOSTLENS_TOKENS: TOKEN_A },
      /--grace must be/,
    ],
    [
      'a Redis URL that is not one',
      {},
      { HOSTLENS_TOKENS: TOKEN_A, HOSTLENS_REDIS_URL: 'http://127.0.0.1:6379' },
      /HOSTLENS_REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/,
    ],
    ['a rate that is not one', { rateLimit: 'fast' }, { HOSTLENS_TOKENS: TOKEN_A }, /--rate-limit/],
    [
      'a rate per fortnight',
      { rateLimit: '10/fortnight' },
      { HOSTLENS_TOKENS: TOKEN_A },
      /--rate-limit takes requests per minute/,
    ],
    ['a zero rate', {}, { HOSTLENS_TOKENS: TOKEN_A, HOSTLENS_RATE_LIMIT: '0/min' }, /--rate-limit/],
    ['a burst of none', { burst: '0' }, { HOSTLENS_TOKENS: TOKEN_A }, /--burst takes a whole/],
    [
      'a fractional max-open',
      {},
      { HOSTLENS_TOKENS: TOKEN_A, HOSTLENS_MAX_OPEN: '1.5' },
      /--max-open/,
    ],
  ];
  for (const [label, argv, env, message] of refusals) {
    it(`refuses to start with ${label}`, async () => {
      const h = serveHarness(2000);
      let created = false;
      const code = await serve(argv, env, () => ((created = true), new FakeServices()), h.io);
      assert.equal(code, 2);
      assert.equal(created, false);
      assert.equal(h.err.length, 1);
      assert.match(h.err[0], message);
      assert.ok(!h.err[0].includes('weak-secret'));
    });
  }

  it('reads the per-token limits from the flags, else from the environment', () => {
    assert.deepEqual(tokenLimitOptions({}, {}), {});
    assert.deepEqual(tokenLimitOptions({ rateLimit: '1200/min' }, {}), {
      rateLimit: { perMinute: 1200, burst: undefined },
    });
    assert.deepEqual(tokenLimitOptions({ rateLimit: '10/s', burst: '50' }, {}), {
      rateLimit: { perMinute: 600, burst: 50 },
    });
    assert.deepEqual(tokenLimitOptions({ rateLimit: '120' }, {}).rateLimit?.perMinute, 120);
    assert.deepEqual(tokenLimitOptions({ rateLimit: '3600/h' }, {}).rateLimit?.perMinute, 60);
    assert.deepEqual(tokenLimitOptions({ burst: '7' }, {}), {
      rateLimit: { perMinute: 600, burst: 7 },
    });
    const env = { HOSTLENS_RATE_LIMIT: '60/min', HOSTLENS_BURST: '2', HOSTLENS_MAX_OPEN: '3' };
    assert.deepEqual(tokenLimitOptions({}, env), {
      rateLimit: { perMinute: 60, burst: 2 },
      maxOpenPerToken: 3,
    });
    assert.deepEqual(tokenLimitOptions({ burst: '9', maxOpen: '4' }, env), {
      rateLimit: { perMinute: 60, burst: 9 },
      maxOpenPerToken: 4,
    });
  });

  it('limits each token as --rate-limit and --burst say', async () => {
    const h = serveHarness(2000);
    const exit = serve(
      { port: 0, rateLimit: '1/min', burst: '2' },
      { HOSTLENS_TOKENS: TOKEN_A },
      () => new FakeServices(),
      h.io,
    );
    const url = await h.listening;
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await request(`${url}/domain/query?host=x.test`, {
        headers: { authorization: TOKEN_A },
        dispatcher: agent,
      });
      await res.body.text();
      statuses.push(res.statusCode);
    }
    assert.deepEqual(statuses, [200, 200, 429]);
    h.signals.emit('SIGTERM');
    assert.equal(await exit, 0);
  });

  it('serves with the guard on, prints the URL and stops cleanly on SIGTERM', async () => {
    const h = serveHarness(2000);
    const fake = new FakeServices();
    let release!: () => void;
    fake.behaviour.query = async () => {
      await new Promise<void>((resolve) => (release = resolve));
      return FIXED.query;
    };
    let blockPrivate: boolean | undefined;
    const exit = serve(
      { port: 0 },
      { HOSTLENS_TOKENS: TOKEN_A },
      (o) => {
        blockPrivate = o.blockPrivate;
        return fake;
      },
      h.io,
    );
    const url = await h.listening;
    assert.equal(blockPrivate, true);
    assert.match(
      h.out[0],
      new RegExp(`listening on ${url} \\(domain: ${url}/domain, meta: ${url}/meta\\)`),
    );
    const inflight = request(`${url}/domain/query?host=x.test`, {
      headers: { authorization: TOKEN_A },
      dispatcher: agent,
    });
    while (fake.calls.length === 0) await new Promise((r) => setTimeout(r, 5));
    h.signals.emit('SIGTERM');
    h.signals.emit('SIGTERM'); // a second signal does not start a second shutdown
    await new Promise((r) => setTimeout(r, 30));
    release();
    const res = await inflight;
    assert.equal(res.statusCode, 200);
    assert.equal(await res.body.text(), JSON.stringify(FIXED.query));
    assert.equal(await exit, 0);
    assert.ok(h.out.some((l) => l.includes('SIGTERM')));
    assert.equal(h.out.at(-1), 'hostlens serve: stopped');
    assert.equal(h.signals.listenerCount('SIGTERM'), 0);
    assert.ok(h.out.every((l) => !l.includes(TOKEN_A)));
  });

  it('writes its own notices as JSON with --log-format json', async () => {
    const h = serveHarness(2000);
    const exit = serve(
      { port: 0, logFormat: 'json' },
      { HOSTLENS_TOKENS: TOKEN_A },
      () => new FakeServices(),
      h.io,
    );
    const url = await h.listening;
    h.signals.emit('SIGTERM');
    assert.equal(await exit, 0);
    const notices = h.out.map((l) => JSON.parse(l) as { kind: string; level: string; msg: string });
    assert.ok(notices.every((n) => n.kind === 'notice' && n.level === 'info'));
    assert.match(notices[0].msg, new RegExp(`^hostlens serve listening on ${url} `));
    assert.equal(notices.at(-1)?.msg, 'hostlens serve: stopped');
  });

  it('turns the guard off with --allow-private and stops on SIGINT', async () => {
    const h = serveHarness(2000);
    let blockPrivate: boolean | undefined;
    const exit = serve(
      { port: 0, allowPrivate: true },
      { HOSTLENS_TOKENS: TOKEN_A },
      (o) => {
        blockPrivate = o.blockPrivate;
        return new FakeServices();
      },
      h.io,
    );
    await h.listening;
    assert.equal(blockPrivate, false);
    assert.match(h.out[0], /private addresses allowed/);
    h.signals.emit('SIGINT');
    assert.equal(await exit, 0);
  });

  it('exits 1 with a clear message when the port is taken', async () => {
    const other = await startServer({ services: new FakeServices(), tokens: [TOKEN_A], port: 0 });
    try {
      const h = serveHarness(2000);
      const code = await serve(
        { port: other.port },
        { HOSTLENS_TOKENS: TOKEN_A },
        () => new FakeServices(),
        h.io,
      );
      assert.equal(code, 1);
      assert.match(h.err[0], /cannot listen on 127\.0\.0\.1:\d+ \(EADDRINUSE\)/);
    } finally {
      await other.close();
    }
  });

  it('a real process exits 0 on SIGTERM after answering the request in flight', async () => {
    const script = resolve(__dirname, '../../support/serve-child.ts');
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      env: { ...process.env, HOSTLENS_TOKENS: TOKEN_A },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    try {
      for (let i = 0; i < 200 && !/listening on (\S+)/.test(out); i++) {
        await new Promise((r) => setTimeout(r, 25));
      }
      const url = /listening on (\S+)/.exec(out)?.[1];
      assert.ok(url, out);
      const inflight = request(`${url}/domain/query?host=x.test`, {
        headers: { authorization: TOKEN_A },
        dispatcher: agent,
      });
      for (let i = 0; i < 200 && !out.includes('query started'); i++) {
        await new Promise((r) => setTimeout(r, 10));
      }
      child.kill('SIGTERM');
      const res = await inflight;
      assert.equal(res.statusCode, 200);
      assert.equal(await res.body.text(), JSON.stringify(FIXED.query));
      assert.equal(await exited, 0);
      assert.match(out, /SIGTERM, finishing in-flight requests[^]*stopped/);
      assert.ok(!out.includes(TOKEN_A));
    } finally {
      child.kill('SIGKILL');
    }
  });
});
