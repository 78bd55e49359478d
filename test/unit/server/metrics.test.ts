// GET /metrics (Prometheus text) and --log-format json: what an operator watches, with no
// token, host name or raw path in any label or log field that could carry one.
import assert from 'node:assert/strict';
import { request } from 'undici';
import { LookupError } from '../../../src/contract/errors';
import { FakeServices } from '../../support/fake-services';
import { rawExchange } from '../../support/raw-http';
import { startTestServer, type TestServer } from '../../support/serve';

const TOKEN = 'metrics-token-0123456789abcdef';
const OTHER = 'wrong-token-0123456789abcdef';

async function get(server: TestServer, path: string, auth: string | null = TOKEN) {
  const res = await request(`${server.url}${path}`, {
    headers: auth === null ? {} : { authorization: auth },
  });
  return { status: res.statusCode, text: await res.body.text(), type: res.headers['content-type'] };
}

/** The value of one sample line, or undefined. */
function sample(text: string, name: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

describe('metrics and structured logs', () => {
  let fake: FakeServices;
  let server: TestServer;

  beforeEach(async () => {
    fake = new FakeServices();
    server = await startTestServer(fake, {
      tokens: [TOKEN],
      rateLimit: { perMinute: 6, burst: 5 },
      logFormat: 'json',
    });
  });

  afterEach(async () => {
    await server.close();
  });

  it('needs the token', async () => {
    const reply = await get(server, '/metrics', null);
    assert.equal(reply.status, 401);
  });

  it('counts requests by route and status, times operations and upstreams, counts refusals', async () => {
    fake.behaviour.icons = () =>
      Promise.reject(new LookupError('blocked_target', 'site.test is a private address'));
    await get(server, '/domain/query?host=secret-host.example.test');
    await get(server, '/domain/whois?host=secret-host.example.test');
    await get(server, '/meta/icons?url=secret-host.example.test');
    await get(server, '/secret-path-nope');
    await get(server, '/domain/query?host=x.test', OTHER);
    // The burst is 5 (the 401 takes none): the second of these is refused.
    await get(server, '/domain/query?host=x.test');
    await get(server, '/domain/query?host=x.test');
    await rawExchange(server.url, ['BREW / HTTP/1.1\r\n\r\n']);
    await new Promise((r) => setTimeout(r, 20));
    const reply = await get(server, '/metrics');
    assert.equal(reply.status, 200);
    assert.match(String(reply.type), /^text\/plain/);
    const m = reply.text;
    assert.equal(sample(m, 'hostlens_http_requests_total{route="domain/query",status="200"}'), 2);
    assert.equal(sample(m, 'hostlens_http_requests_total{route="domain/whois",status="200"}'), 1);
    assert.equal(sample(m, 'hostlens_http_requests_total{route="meta/icons",status="403"}'), 1);
    assert.equal(sample(m, 'hostlens_http_requests_total{route="other",status="404"}'), 1);
    assert.equal(sample(m, 'hostlens_http_requests_total{route="other",status="401"}'), 1);
    assert.equal(sample(m, 'hostlens_http_requests_total{route="domain/query",status="429"}'), 1);
    assert.equal(sample(m, 'hostlens_http_requests_total{route="malformed",status="400"}'), 1);
    assert.equal(sample(m, 'hostlens_request_duration_seconds_count{operation="query"}'), 2);
    assert.equal(sample(m, 'hostlens_upstream_duration_seconds_count{kind="dns"}'), 2);
    assert.equal(sample(m, 'hostlens_upstream_duration_seconds_count{kind="whois"}'), 1);
    assert.equal(sample(m, 'hostlens_upstream_duration_seconds_count{kind="web"}'), 1);
    assert.equal(sample(m, 'hostlens_refusals_total{reason="rate_limit"}'), 1);
    assert.equal(sample(m, 'hostlens_refusals_total{reason="guard"}'), 1);
    assert.equal(sample(m, 'hostlens_redis_configured'), 0);
    assert.equal(sample(m, 'hostlens_redis_up'), 0);
    for (const secret of [TOKEN, OTHER, 'secret-host', 'secret-path', 'example.test']) {
      assert.ok(!m.includes(secret), `${secret} in the metrics`);
    }
  });

  it('writes one JSON object a line with --log-format json, never a token', async () => {
    await get(server, '/domain/query?host=x.test');
    await get(server, '/domain/query?host=x.test', `Bearer ${TOKEN}`);
    await get(server, '/nope', OTHER);
    await rawExchange(server.url, ['PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n']);
    fake.behaviour.whois = () => Promise.reject(new Error('boom at 10.0.0.7'));
    await get(server, '/domain/whois?host=x.test');
    await new Promise((r) => setTimeout(r, 20));
    const events = server.log.map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.ok(events.every((e) => typeof e.time === 'string' && typeof e.kind === 'string'));
    const access = events.filter((e) => e.kind === 'access');
    assert.deepEqual(
      access.map((e) => [e.method, e.path, e.status]),
      [
        ['GET', '/domain/query?host=x.test', '200'],
        ['GET', '/domain/query?host=x.test', '200'],
        ['GET', '/nope', '401'],
        ['GET', '/domain/whois?host=x.test', '500'],
      ],
    );
    assert.ok(access.every((e) => typeof e.ms === 'number' && e.remote === '127.0.0.1'));
    assert.ok(
      events.some((e) => e.kind === 'client_error' && e.reason === 'HPE_PAUSED_H2_UPGRADE'),
    );
    assert.ok(events.some((e) => e.kind === 'notice' && e.level === 'error'));
    for (const line of server.log) {
      assert.ok(!line.includes(TOKEN) && !line.includes(OTHER), line);
    }
  });
});
