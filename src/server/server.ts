// `hostlens serve`: the seed's two services over node:http, in front of any Services
// implementation. Order of checks per request: /healthz (no token) → token (401) → per-token
// rate limit (429) → route (404) → method (405) → parameters (400) → work gate (queue, or 429
// when the queue is full) → the service call under a deadline (504 when it runs out).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { LookupError, toLookupError } from '../contract/errors';
import { printable } from '../contract/errors';
import type { Services } from '../contract/services';
import { TokenSet } from './auth';
import { RateLimiter, WorkGate, type RateLimitOptions } from './limits';
import { sendJson, sendProblem } from './respond';
import { invoke, parseParams, ROUTES } from './routes';

export interface ServerOptions {
  services: Services;
  tokens: string[];
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 8787; 0 picks a free port. */
  port?: number;
  /** Per token. Default 600 a minute with bursts of 100. */
  rateLimit?: { perMinute: number; burst?: number };
  /** Service calls running at once; up to 4× as many more wait in a queue. Default 32. */
  maxConcurrent?: number;
  /** Whole request, and the deadline of the service call behind it. Default 30 s. */
  requestTimeoutMs?: number;
  /** Time a client gets to send its request headers. Default 10 s. */
  headersTimeoutMs?: number;
  /** One line per request (and per unexpected failure). Never holds a token. */
  log?: (line: string) => void;
}

export interface RunningServer {
  /** `http://host:port` */
  url: string;
  port: number;
  /** Stops accepting, lets in-flight requests finish for up to `graceMs` (default 10 s). */
  close(graceMs?: number): Promise<void>;
}

const DEFAULT_RATE_LIMIT: RateLimitOptions = { perMinute: 600, burst: 100 };

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const tokens = new TokenSet(options.tokens);
  const limiter = new RateLimiter(options.rateLimit ?? DEFAULT_RATE_LIMIT);
  const maxConcurrent = options.maxConcurrent ?? 32;
  const gate = new WorkGate(maxConcurrent, maxConcurrent * 4);
  const requestTimeout = options.requestTimeoutMs ?? 30_000;
  const headersTimeout = Math.min(options.headersTimeoutMs ?? 10_000, requestTimeout);
  const log = options.log ?? (() => undefined);
  const inFlight = new Set<AbortController>();
  let closing = false;
  let onDrained: (() => void) | undefined;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    req.resume(); // GET bodies are not read; drain them so the connection stays usable
    if (closing) res.setHeader('connection', 'close');
    const url = requestUrl(req.url);
    if (url?.pathname === '/healthz') {
      if (req.method !== 'GET' && req.method !== 'HEAD') return methodNotAllowed(res);
      sendJson(res, { status: 'ok' });
      return;
    }
    const who = tokens.match(req.headers.authorization);
    if (who < 0) {
      sendProblem(res, new LookupError('unauthorized', 'A valid API token is required'));
      return;
    }
    const op = url && ROUTES.get(url.pathname);
    try {
      limiter.take(who);
      if (!url) throw new LookupError('invalid_argument', 'The request target is not a path');
      if (!op) throw new LookupError('not_found', 'No such endpoint');
    } catch (err) {
      sendProblem(res, toLookupError(err));
      return;
    }
    if (req.method !== 'GET') return methodNotAllowed(res);

    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, requestTimeout);
    const onClose = () => {
      if (!res.writableFinished) controller.abort();
    };
    res.on('close', onClose);
    inFlight.add(controller);
    let release: (() => void) | undefined;
    try {
      const params = parseParams(op, url.searchParams);
      release = await gate.acquire(controller.signal);
      const result = await invoke(options.services, op, params, { signal: controller.signal });
      if (controller.signal.aborted) throw new LookupError('cancelled', 'cancelled');
      sendJson(res, result);
    } catch (err) {
      let problem = toLookupError(err);
      if (timedOut && (problem.code === 'cancelled' || controller.signal.aborted)) {
        problem = new LookupError('upstream_timeout', 'The lookup took too long');
      }
      if (problem.code === 'internal_error') {
        const cause = problem.cause instanceof Error ? problem.cause : problem;
        log(`error ${op.service}${op.path}: ${printable(`${cause.name}: ${cause.message}`, 300)}`);
      }
      sendProblem(res, problem);
    } finally {
      clearTimeout(timer);
      release?.();
      inFlight.delete(controller);
      res.off('close', onClose);
      if (inFlight.size === 0) onDrained?.();
    }
  }

  const server = createServer(
    {
      requestTimeout,
      headersTimeout,
      // Node checks both timeouts on this interval (30 s by default), far too coarse for them.
      connectionsCheckingInterval: Math.max(25, Math.min(1000, Math.floor(headersTimeout / 4))),
    },
    (req, res) => {
      const started = performance.now();
      res.once('close', () => {
        const ms = (performance.now() - started).toFixed(1);
        const status = res.writableFinished ? String(res.statusCode) : 'aborted';
        log(
          `${new Date().toISOString()} ${req.socket.remoteAddress ?? '-'} ${printable(req.method ?? '-', 10)} ${printable(req.url ?? '/', 512)} ${status} ${ms}ms`,
        );
      });
      handle(req, res).catch((err: unknown) => {
        // handle() catches everything it expects; this is the last line of defence.
        log(`error unhandled: ${printable(String(err), 300)}`);
        sendProblem(res, new LookupError('internal_error', 'An unexpected error occurred'));
      });
    },
  );
  server.keepAliveTimeout = 5_000;
  // A socket error (reset, malformed request) never reaches handle(); answer 400 when we can.
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    log(
      `${new Date().toISOString()} ${socket.remoteAddress ?? '-'} - - ${printable(err.code ?? 'client error', 40)}`,
    );
    if (socket.writable && !socket.destroyed && err.code !== 'ECONNRESET') {
      const timedOut = err.code === 'ERR_HTTP_REQUEST_TIMEOUT';
      socket.end(
        timedOut
          ? 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n'
          : 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n',
      );
    } else {
      socket.destroy();
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 8787, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  async function close(graceMs = 10_000): Promise<void> {
    closing = true;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    if (inFlight.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        onDrained = resolve;
        timer = setTimeout(resolve, graceMs);
      });
      clearTimeout(timer);
    }
    for (const controller of inFlight) controller.abort();
    server.closeAllConnections();
    await closed;
  }

  return { url: `http://${host}:${address.port}`, port: address.port, close };

  function methodNotAllowed(res: ServerResponse): void {
    // The contract has no code of its own for this; the body carries invalid_argument.
    const err = new LookupError('invalid_argument', 'Only GET is supported');
    sendProblem(res, err, { status: 405, headers: { allow: 'GET' } });
  }
}

/** The request target (origin or absolute form) as a URL; undefined for anything else. */
function requestUrl(target: string | undefined): URL | undefined {
  if (target === undefined) return undefined;
  if (/^https?:\/\//i.test(target)) {
    try {
      return new URL(target);
    } catch {
      return undefined;
    }
  }
  if (!target.startsWith('/')) return undefined;
  try {
    // Prefixing an origin keeps `//host/...` targets a path instead of a new authority.
    return new URL(`http://server.invalid${target}`);
  } catch {
    return undefined;
  }
}
