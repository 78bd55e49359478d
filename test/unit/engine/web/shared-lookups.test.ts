// A pool's connections to one host share one name look-up for a while; failures are asked again.
import assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createWebPool } from '../../../../src/engine/web/fetcher';
import { link } from '../../../../src/engine/web/link';
import { SHARED_LOOKUP_MS, sharedLookups } from '../../../../src/engine/web/shared-lookups';

const ANSWER: LookupAddress[] = [{ address: '127.0.0.1', family: 4 }];

function counting(answer: () => Promise<LookupAddress[]> = () => Promise.resolve(ANSWER)) {
  const asked: string[] = [];
  return {
    asked,
    resolve: (hostname: string) => {
      asked.push(hostname);
      return answer();
    },
  };
}

describe('shared name look-ups of a web pool', function () {
  it('asks once for a name asked again while its answer is under way or fresh', async function () {
    let now = 0;
    const { asked, resolve } = counting();
    const lookup = sharedLookups(resolve, () => now);
    const [a, b] = await Promise.all([lookup('host.test'), lookup('HOST.test')]);
    now = SHARED_LOOKUP_MS - 1;
    const c = await lookup('host.test');
    assert.deepEqual(asked, ['host.test']);
    assert.deepEqual([a, b, c], [ANSWER, ANSWER, ANSWER]);
  });

  it('asks again once the answer is SHARED_LOOKUP_MS old, and for each other name', async function () {
    let now = 0;
    const { asked, resolve } = counting();
    const lookup = sharedLookups(resolve, () => now);
    await lookup('host.test');
    await lookup('other.test');
    now = SHARED_LOOKUP_MS;
    await lookup('host.test');
    assert.deepEqual(asked, ['host.test', 'other.test', 'host.test']);
  });

  it('keeps no failure: the next connection asks again', async function () {
    const { asked, resolve } = counting(() =>
      Promise.reject(Object.assign(new Error('no such name'), { code: 'ENOTFOUND' })),
    );
    const lookup = sharedLookups(resolve, () => 0);
    await assert.rejects(lookup('gone.test'), /no such name/);
    await assert.rejects(lookup('gone.test'), /no such name/);
    assert.deepEqual(asked, ['gone.test', 'gone.test']);
  });

  describe('in a link check’s pool', function () {
    let server: Server;
    let port = 0;
    let connections = 0;

    before(async function () {
      server = createServer((_req, res) => {
        // answered a little later, so that links sent together each need a connection
        setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end(), 30);
      });
      server.on('connection', (_socket: Socket) => connections++);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
    });

    after(function () {
      server.closeAllConnections();
      server.close();
    });

    for (const blockPrivate of [false, true]) {
      it(`opens four connections to a host on one look-up${blockPrivate ? ', guard on' : ''}`, async function () {
        const { asked, resolve } = counting();
        const options = {
          lookup: resolve,
          blockPrivate,
          ...(blockPrivate ? { allowCidrs: ['127.0.0.1/32'] } : {}),
        };
        const agent = createWebPool(options);
        connections = 0;
        try {
          const answers = await Promise.all(
            [1, 2, 3, 4].map((n) =>
              link({ url: `http://pool.test:${port}/${n}` }, { ...options, agent }),
            ),
          );
          assert.deepEqual(
            answers.map((a) => a.status),
            [200, 200, 200, 200],
          );
          assert.equal(connections, 4);
          assert.deepEqual(asked, ['pool.test']);
        } finally {
          await agent.destroy();
        }
      });
    }

    it('still refuses, guard on, a shared answer that is private', async function () {
      const { asked, resolve } = counting();
      const options = { lookup: resolve, blockPrivate: true };
      const agent = createWebPool(options);
      connections = 0;
      try {
        const outcomes = await Promise.allSettled(
          [1, 2].map((n) => link({ url: `http://pool.test:${port}/${n}` }, { ...options, agent })),
        );
        for (const outcome of outcomes) {
          assert.equal(outcome.status, 'rejected');
          assert.equal((outcome.reason as { code?: string }).code, 'blocked_target');
        }
        assert.equal(connections, 0);
        assert.deepEqual(asked, ['pool.test']);
      } finally {
        await agent.destroy();
      }
    });
  });
});
