// The loopback test web of the workspace check: one HTTP server answering for every name the
// fixture DNS points at it, by Host header and path. Good pages, 404, 410, permanent chains,
// a temporary redirect, fragments, a host that answers 429 with Retry-After once, a slow host.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface LinkWeb {
  port: number;
  /** "METHOD host path" of every request, in order */
  requests: string[];
  close(): Promise<void>;
}

const PAGE = `<!doctype html><html><head><title>t</title></head><body>
<h1 id="present">Here</h1><a name="named">n</a><h2 id="user-content-install">Install</h2>
</body></html>`;

export async function startLinkWeb(options: { slowMs?: number } = {}): Promise<LinkWeb> {
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  let busyAnswered = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    const path = req.url ?? '/';
    requests.push(`${req.method} ${host} ${path}`);
    const html = () => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(req.method === 'HEAD' ? undefined : PAGE);
    };
    const redirect = (status: number, to: string) => {
      res.writeHead(status, { location: to });
      res.end();
    };
    if (host.startsWith('busy.')) {
      // The first answer asks to come back in a second; after that the host is fine.
      if (busyAnswered++ === 0) {
        res.writeHead(429, { 'retry-after': '1' });
        res.end();
      } else html();
      return;
    }
    if (host.startsWith('slow.')) {
      setTimeout(html, options.slowMs ?? 3000).unref();
      return;
    }
    switch (path) {
      case '/':
      case '/ok':
      case '/page':
        return html();
      case '/missing':
        res.writeHead(404);
        return res.end();
      case '/gone':
        res.writeHead(410);
        return res.end();
      case '/moved':
        return redirect(301, '/moved-again');
      case '/moved-again':
        return redirect(308, '/ok');
      case '/for-now':
        return redirect(302, '/ok');
      case '/no-head':
        if (req.method === 'HEAD') {
          res.writeHead(405);
          return res.end();
        }
        return html();
      default:
        res.writeHead(404);
        res.end();
    }
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
