import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { EmbeddedServices } from '../../../../src/services/embedded';

// The link operation's connection pool: a check makes thousands of calls, so a host's links
// must share its connections (HEADs included) and an unwanted body must not keep one forever.
describe('link operation connections', function () {
  let server: Server;
  let base: string;
  let connections = 0;
  const sockets = new Set<Socket>();
  let dripClosedAt = 0;

  before(async function () {
    server = createServer((req, res) => {
      const path = req.url ?? '';
      if (path === '/ok') {
        res.writeHead(200, { 'content-type': 'text/html', 'content-length': '12' });
        res.end(req.method === 'HEAD' ? undefined : '<p>page</p>\n');
      } else if (path === '/moved') {
        res.writeHead(301, { location: '/ok' });
        res.end('moved');
      } else if (path === '/big-404') {
        // HEAD is refused; the GET's error page is far larger than is worth reading off
        res.writeHead(404, { 'content-type': 'text/html' });
        res.end(req.method === 'HEAD' ? undefined : 'x'.repeat(1024 * 1024));
      } else if (path === '/early-hints') {
        // a 1xx interim answer first (RFC 8297): the verdict is the final answer's
        res.writeEarlyHints({ link: '</style.css>; rel=preload; as=style' });
        res.writeHead(200, { 'content-type': 'text/html', 'content-length': '12' });
        res.end(req.method === 'HEAD' ? undefined : '<p>page</p>\n');
      } else if (path === '/late-body-404') {
        // HEAD is refused; the GET's headers come at once and its small body a while later
        res.writeHead(404, { 'content-type': 'text/html' });
        if (req.method === 'HEAD') return void res.end();
        res.flushHeaders();
        setTimeout(() => res.end('<p>no such page, at last</p>'), 300);
      } else if (path === '/hang') {
        return; // never answers
      } else if (path === '/drip-404') {
        res.writeHead(404, { 'content-type': 'text/html' });
        if (req.method === 'HEAD') return void res.end();
        const timer = setInterval(() => res.write('.'), 100);
        res.on('close', () => {
          clearInterval(timer);
          dripClosedAt = Date.now();
        });
      } else {
        res.writeHead(404, { 'content-type': 'text/html' });
        res.end(req.method === 'HEAD' ? undefined : '<p>no such page</p>');
      }
    });
    server.on('connection', (socket: Socket) => {
      connections++;
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(function () {
    server.closeAllConnections();
    server.close();
  });

  it('answers a host’s links over one kept-alive connection: HEADs, a refused HEAD’s GET, redirects', async function () {
    const services = new EmbeddedServices({});
    connections = 0;
    try {
      for (const path of ['/ok', '/ok', '/gone', '/moved', '/ok', '/gone']) {
        await services.meta.link({ url: `${base}${path}` });
        // the drained body goes back to the pool a moment after the answer
        await new Promise((r) => setTimeout(r, 5));
      }
      assert.equal(connections, 1);
    } finally {
      await services.close();
    }
  });

  it('answers once the connection is back in the pool: links sent back to back, a few at a time, open no more connections than run at once', async function () {
    const services = new EmbeddedServices({});
    connections = 0;
    try {
      const paths = ['/ok', '/gone', '/moved', '/ok', '/ok', '/gone', '/moved', '/ok'];
      // three lanes, each sending its next link the moment the last one is answered (the
      // workspace check's per-host lanes); a connection still busy would make the pool open more
      const lane = async () => {
        for (const path of paths) await services.meta.link({ url: `${base}${path}` });
      };
      await Promise.all([lane(), lane(), lane()]);
      assert.ok(connections <= 3, `${connections} connections for 3 lanes`);
    } finally {
      await services.close();
    }
  });

  it('answers a refused HEAD’s GET at its headers, and keeps the connection once its body is dropped', async function () {
    const services = new EmbeddedServices({});
    connections = 0;
    try {
      const started = Date.now();
      const result = await services.meta.link({ url: `${base}/late-body-404` });
      assert.equal(result.status, 404);
      assert.equal(result.method, 'GET');
      assert.ok(Date.now() - started < 250, 'the verdict does not wait for the body');
      await new Promise((r) => setTimeout(r, 400));
      assert.equal((await services.meta.link({ url: `${base}/ok` })).status, 200);
      assert.equal(connections, 1, 'the body was read off, not cut');
    } finally {
      await services.close();
    }
  });

  it('takes the final answer to a HEAD after a 1xx interim one', async function () {
    const services = new EmbeddedServices({});
    try {
      const result = await services.meta.link({ url: `${base}/early-hints` });
      assert.equal(result.status, 200);
      assert.equal(result.method, 'HEAD');
    } finally {
      await services.close();
    }
  });

  it('ends a HEAD the caller cancels at once, and one past the call’s deadline as a timeout', async function () {
    const services = new EmbeddedServices({});
    try {
      const controller = new AbortController();
      const started = Date.now();
      setTimeout(() => controller.abort(), 50);
      await assert.rejects(
        services.meta.link({ url: `${base}/hang` }, { signal: controller.signal }),
        {
          code: 'cancelled',
        },
      );
      assert.ok(Date.now() - started < 1000, `cancelled after ${Date.now() - started} ms`);
      await assert.rejects(services.meta.link({ url: `${base}/hang` }, { timeoutMs: 100 }), {
        code: 'upstream_timeout',
      });
      // the host is still answered afterwards
      assert.equal((await services.meta.link({ url: `${base}/ok` })).status, 200);
    } finally {
      await services.close();
    }
  });

  it('cuts off a large unwanted body instead of reading it to keep the connection', async function () {
    const services = new EmbeddedServices({});
    try {
      const started = Date.now();
      const result = await services.meta.link({ url: `${base}/big-404` });
      assert.equal(result.status, 404);
      assert.equal(result.method, 'GET');
      // the HEAD's connection carried the GET; past 64 KiB of its body it is closed
      while (sockets.size > 0 && Date.now() - started < 1000) {
        await new Promise((r) => setTimeout(r, 10));
      }
      assert.equal(sockets.size, 0);
      assert.equal((await services.meta.link({ url: `${base}/ok` })).status, 200);
    } finally {
      await services.close();
    }
  });

  it('gives up draining a body that never ends within a bounded time', async function () {
    this.timeout(6000);
    const services = new EmbeddedServices({});
    try {
      const started = Date.now();
      dripClosedAt = 0;
      const result = await services.meta.link({ url: `${base}/drip-404` });
      assert.equal(result.status, 404);
      assert.ok(Date.now() - started < 1000, 'the verdict does not wait for the body');
      while (dripClosedAt === 0 && Date.now() - started < 5000) {
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.ok(dripClosedAt > 0, 'the dripping connection was closed');
      assert.ok(dripClosedAt - started < 3500, `closed after ${dripClosedAt - started} ms`);
    } finally {
      await services.close();
    }
  });
});
