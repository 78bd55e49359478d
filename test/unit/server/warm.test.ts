// The server's warm-up before it listens (src/server/warm.ts): it runs on a throwaway server of
// its own, so the real one's services, limits, metrics and log see none of it, and it never
// stops a server from starting.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { LookupError } from '../../../src/contract/errors';
import { warmUpServer, warmUpServices } from '../../../src/server/warm';
import { FakeServices } from '../../support/fake-services';
import { startTestServer } from '../../support/serve';

const TOKEN = 'warm-test-token-0123456789abcdef';

describe('server warm-up', () => {
  it('leaves no trace in the real server: no service call, no log line, no count, no rate', async () => {
    const fake = new FakeServices();
    const server = await startTestServer(fake, {
      tokens: [TOKEN],
      warmUp: true,
      // One request a minute: a warm-up spending this token's budget would show at once.
      rateLimit: { perMinute: 1, burst: 1 },
    });
    try {
      assert.deepEqual(fake.calls, []);
      assert.deepEqual(server.log, []);
      const first = await request(`${server.url}/domain/query?host=x.test`, {
        headers: { authorization: TOKEN },
      });
      assert.equal(first.statusCode, 200);
      await first.body.text();
      assert.equal(fake.calls.length, 1);
      const metrics = await request(`${server.url}/metrics`, { headers: { authorization: TOKEN } });
      const text = await metrics.body.text();
      const answered = text
        .split('\n')
        .filter((l) => l.startsWith('hostlens_http_requests_total{'))
        .map((l) => Number(l.split(' ').pop()))
        .reduce((a, b) => a + b, 0);
      assert.equal(answered, 1, text);
    } finally {
      await server.close();
    }
  });

  it('uses stand-in services: NXDOMAIN for a .invalid name (RFC 6761), a refusal otherwise', async () => {
    const services = warmUpServices();
    assert.deepEqual(await services.domain.query({ host: 'warm.invalid' }), {
      records: [],
      status: 'NXDOMAIN',
    });
    await assert.rejects(
      services.meta.unfurl({ url: 'https://warm.invalid/' }),
      (e: unknown) => e instanceof LookupError && e.code === 'not_found',
    );
  });

  it('never stops a start: a throwaway server that cannot start, or that does not answer', async () => {
    await warmUpServer(() => Promise.reject(new Error('EADDRINUSE')));
    // A server that accepts and never answers: each warm request times out, and the target
    // is still closed at the end.
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    let closed = false;
    const started = Date.now();
    await warmUpServer(() =>
      Promise.resolve({
        url: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`,
        token: TOKEN,
        close: async () => {
          closed = true;
          silent.closeAllConnections();
          await new Promise((resolve) => silent.close(resolve));
        },
      }),
    );
    assert.ok(closed);
    assert.ok(Date.now() - started < 10_000);
  });
});
