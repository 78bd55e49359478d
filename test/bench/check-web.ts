// The check bench's loopback web, in a process of its own: 100 hosts (127.0.1.1-100, one
// port), every answer LATENCY late. It stands for the network, so its work must not take the
// CPU of the checker it measures (in one process, serving 2,000 requests cost about as much as
// making them). The parent asks for its counts by message.
import { fork, type ChildProcess } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const HOSTS = 100;

export type Verdict = 'ok' | 'broken' | 'moved';

export const hostOf = (i: number) => `127.0.1.${(i % HOSTS) + 1}`;

/**
 * What link k is, by its rank j among its host's links (k = j * HOSTS + host): 404 for
 * j % 10 == 0, a 301 for j % 10 == 1, else a page; so every host has the same mix.
 */
export function expected(k: number): Verdict {
  const j = Math.floor(k / HOSTS) % 10;
  return j === 0 ? 'broken' : j === 1 ? 'moved' : 'ok';
}

export interface BenchWeb {
  port: number;
  /** requests and the most open at once, per host, since the last reset */
  counts(): Promise<{ requests: Map<string, number>; maxOpen: Map<string, number> }>;
  reset(): Promise<void>;
  close(): Promise<void>;
}

type Request = { type: 'counts' } | { type: 'reset' };
type Reply =
  | { type: 'ready'; port: number }
  | { type: 'counts'; requests: [string, number][]; maxOpen: [string, number][] }
  | { type: 'reset' };

const CHILD_FLAG = '--check-bench-web';

export async function startBenchWeb(latencyMs: number): Promise<BenchWeb> {
  const child = fork(__filename, [CHILD_FLAG, String(latencyMs)], { stdio: 'inherit' });
  const next = <T extends Reply['type']>(type: T) =>
    new Promise<Extract<Reply, { type: T }>>((resolve, reject) => {
      const onMessage = (reply: Reply) => {
        if (reply.type !== type) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(reply as Extract<Reply, { type: T }>);
      };
      const onExit = (code: number | null) => reject(new Error(`bench web exited (${code})`));
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  const ask = <T extends Request['type']>(type: T) => {
    const reply = next(type);
    child.send({ type });
    return reply;
  };
  const { port } = await next('ready');
  return {
    port,
    counts: async () => {
      const reply = await ask('counts');
      return { requests: new Map(reply.requests), maxOpen: new Map(reply.maxOpen) };
    },
    reset: async () => {
      await ask('reset');
    },
    close: () => stop(child),
  };
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill();
  });
}

async function serve(latencyMs: number): Promise<void> {
  const requests = new Map<string, number>();
  const maxOpen = new Map<string, number>();
  const open = new Map<string, number>();
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const host = req.socket.localAddress ?? '';
    requests.set(host, (requests.get(host) ?? 0) + 1);
    const now = (open.get(host) ?? 0) + 1;
    open.set(host, now);
    maxOpen.set(host, Math.max(maxOpen.get(host) ?? 0, now));
    setTimeout(() => {
      open.set(host, (open.get(host) ?? 1) - 1);
      const m = /^\/p\/(\d+)(\/final)?$/.exec(req.url ?? '');
      const k = m ? Number(m[1]) : -1;
      if (!m || (expected(k) === 'broken' && !m[2])) {
        res.writeHead(404, { 'content-type': 'text/html' });
        res.end(req.method === 'HEAD' ? undefined : '<p>no</p>');
      } else if (expected(k) === 'moved' && !m[2]) {
        res.writeHead(301, { location: `/p/${k}/final` });
        res.end();
      } else {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(req.method === 'HEAD' ? undefined : `<h1 id="top">${k}</h1>`);
      }
    }, latencyMs);
  };
  const servers: Server[] = [];
  let port = 0;
  for (let i = 0; i < HOSTS; i++) {
    const server = createServer({ keepAliveTimeout: 5000 }, handler);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, hostOf(i), () => resolve());
    });
    if (port === 0) port = (server.address() as AddressInfo).port;
    servers.push(server);
  }
  const send = (reply: Reply) => process.send!(reply);
  process.on('message', (request: Request) => {
    if (request.type === 'counts') {
      send({ type: 'counts', requests: [...requests], maxOpen: [...maxOpen] });
    } else {
      requests.clear();
      maxOpen.clear();
      open.clear();
      send({ type: 'reset' });
    }
  });
  // The parent gone (a crashed bench), nothing is left listening.
  process.on('disconnect', () => process.exit(0));
  send({ type: 'ready', port });
}

if (process.argv[2] === CHILD_FLAG) void serve(Number(process.argv[3]));
