// `hostlens serve`: the seed's two services over node:http, in front of any Services
// implementation. This file wires the pieces: limits (local, or shared through Redis), the
// request handler (handler.ts), answers to malformed requests (malformed.ts), metrics, logs
// and the shutdown that lets running requests finish (inflight.ts).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { LookupError } from '../contract/errors';
import { DEFAULT_REQUEST_DEADLINE_MS } from '../contract/limits';
import type { Services } from '../contract/services';
import { TokenSet } from './auth';
import { ResponseCache } from './cache';
import { handle, type Exchange, type HandlerContext } from './handler';
import { InFlight } from './inflight';
import {
  ConcurrencyBudget,
  LocalLimits,
  RateLimiter,
  WorkGate,
  type RateLimitOptions,
  type TokenLimits,
} from './limits';
import { formatLog, loggedTarget, type LogEvent, type LogFormat } from './log';
import { answerClientError, answerConnect, clientErrorProblem } from './malformed';
import { ServerMetrics } from './metrics';
import { RedisLink } from './redis';
import { sendProblem } from './respond';
import { SharedLimits } from './shared-limits';
import { warmToken, warmUpServer, warmUpServices, type WarmTarget } from './warm';

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
  /** Requests one token may have open at once (across instances with Redis). Default 64. */
  maxOpenPerToken?: number;
  /** Whole request, and the deadline of the service call behind it. Default 30 s. */
  requestTimeoutMs?: number;
  /** Time a client gets to send its request headers. Default 10 s. */
  headersTimeoutMs?: number;
  /** Shared limits (and the optional cache) for several instances: a redis:// URL. */
  redisUrl?: string;
  /** With redisUrl: cache answers in Redis. */
  cache?: boolean;
  /** Lifetime of cached web and WHOIS answers. Default 60 s. */
  cacheWebTtlMs?: number;
  /**
   * What the services' address guard allows ('guarded', 'open'): cached answers are shared
   * only between instances with the same policy. Default 'unknown'.
   */
  cacheScope?: string;
  /** One line per request (and per unexpected failure). Never holds a token. */
  log?: (line: string) => void;
  /** `text` (default) or `json`, one object a line. */
  logFormat?: LogFormat;
  /**
   * Before listening, answer a few requests on a throwaway server of the same code, so the
   * first real request does not pay for compiling it (warm.ts). `hostlens serve` does;
   * default false.
   */
  warmUp?: boolean;
}

export interface RunningServer {
  /** `http://host:port` */
  url: string;
  port: number;
  /**
   * Stops accepting, lets in-flight requests finish for up to `graceMs` (default 10 s), then
   * answers the rest 503 and cancels them. Resolves with how many were cut that way.
   */
  close(graceMs?: number): Promise<{ cut: number }>;
}

const DEFAULT_RATE_LIMIT: RateLimitOptions = { perMinute: 600, burst: 100 };

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  if (options.warmUp === true) await warmUpServer(throwawayServer);
  const write = options.log ?? (() => undefined);
  const log = (event: LogEvent) => write(formatLog(event, options.logFormat ?? 'text'));
  const metrics = new ServerMetrics();
  const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_DEADLINE_MS;
  const maxConcurrent = options.maxConcurrent ?? 32;
  // Before the Redis link opens: a bad token list must not leave a connection behind.
  const tokens = new TokenSet(options.tokens);
  const { limits, cache, redis } = buildLimits(options, requestTimeoutMs, metrics, log);
  let closing = false;
  const ctx: HandlerContext = {
    services: options.services,
    tokens,
    limits,
    gate: new WorkGate(maxConcurrent, maxConcurrent * 4),
    requestTimeoutMs,
    metrics,
    cache,
    inFlight: new InFlight(),
    notice: (level, msg) => log({ kind: 'notice', level, msg }),
    closing: () => closing,
  };
  const server = createNodeServer(ctx, options, requestTimeoutMs, log);
  try {
    await listen(server, options.port ?? 8787, options.host ?? '127.0.0.1');
  } catch (err) {
    await redis?.close();
    throw err;
  }
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  async function close(graceMs = 10_000): Promise<{ cut: number }> {
    closing = true;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    await ctx.inFlight.drained(graceMs);
    const cut = await ctx.inFlight.cut();
    if (cut > 0) {
      for (let i = 0; i < cut; i++) metrics.refused('shutdown');
      ctx.notice('warn', `${cut} request(s) still running after the grace period were cut`);
    }
    server.closeAllConnections();
    await closed;
    await redis?.close();
    return { cut };
  }

  return { url: `http://${host}:${address.port}`, port: address.port, close };
}

/** The same server on a loopback port of its own, with one token of its own, and no Redis. */
async function throwawayServer(): Promise<WarmTarget> {
  const token = warmToken();
  const server = await startServer({
    services: warmUpServices(),
    tokens: [token],
    host: '127.0.0.1',
    port: 0,
  });
  return { url: server.url, token, close: () => server.close(0) };
}

/** The per-token limits: in this process, or in Redis when a URL is given. */
function buildLimits(
  options: ServerOptions,
  requestTimeoutMs: number,
  metrics: ServerMetrics,
  log: (event: LogEvent) => void,
): { limits: TokenLimits; cache?: ResponseCache; redis?: RedisLink } {
  const local = new LocalLimits(
    new RateLimiter(options.rateLimit ?? DEFAULT_RATE_LIMIT),
    new ConcurrencyBudget(options.maxOpenPerToken ?? 64),
  );
  if (options.redisUrl === undefined || options.redisUrl === '') return { limits: local };
  metrics.redis('configured');
  const redis = new RedisLink({
    url: options.redisUrl,
    onState: (state, reason) => {
      metrics.redis(state);
      log(
        state === 'shared'
          ? { kind: 'notice', level: 'info', msg: 'redis: connected; limits are shared' }
          : {
              kind: 'notice',
              level: 'warn',
              msg: `redis: unreachable (${reason}); limits are per instance until it is back (degraded)`,
            },
      );
    },
  });
  // A slot is held at most for the deadline and a margin, even if its release is lost.
  const limits = new SharedLimits(redis, local, requestTimeoutMs + 5_000);
  const cache = options.cache
    ? new ResponseCache(redis, {
        ...(options.cacheWebTtlMs !== undefined ? { webTtlMs: options.cacheWebTtlMs } : {}),
        ...(options.cacheScope !== undefined ? { scope: options.cacheScope } : {}),
      })
    : undefined;
  return { limits, cache, redis };
}

function createNodeServer(
  ctx: HandlerContext,
  options: ServerOptions,
  requestTimeout: number,
  log: (event: LogEvent) => void,
): Server {
  const headersTimeout = Math.min(options.headersTimeoutMs ?? 10_000, requestTimeout);
  const server = createServer(
    {
      requestTimeout,
      headersTimeout,
      // Node checks both timeouts on this interval (30 s by default), far too coarse for them.
      connectionsCheckingInterval: Math.max(25, Math.min(1000, Math.floor(headersTimeout / 4))),
      // Node answers a missing Host with an empty 400; the handler answers it as problem+json.
      requireHostHeader: false,
    },
    (req, res) => serveOne(ctx, req, res, log, options.tokens),
  );
  server.keepAliveTimeout = 5_000;
  // Requests the parser refuses, and slow headers, never reach the handler.
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    const reason = err.code ?? 'client error';
    log({ kind: 'client_error', remote: socket.remoteAddress ?? '-', reason });
    if (err.code !== 'ECONNRESET') {
      const problem = clientErrorProblem(err.code);
      ctx.metrics.answered('malformed', problem.status);
    }
    answerClientError(err, socket);
  });
  // RFC 9110 section 10.1.1: an expectation other than 100-continue MAY be refused with 417;
  // Node's refusal has no body, so such a request is served as if it had none.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) =>
    serveOne(ctx, req, res, log, options.tokens),
  );
  // CONNECT never reaches the request handler: without this, Node drops the connection.
  server.on('connect', (_req: IncomingMessage, socket: Socket) => {
    log({ kind: 'client_error', remote: socket.remoteAddress ?? '-', reason: 'CONNECT' });
    ctx.metrics.answered('malformed', 405);
    answerConnect(socket);
  });
  return server;
}

function serveOne(
  ctx: HandlerContext,
  req: IncomingMessage,
  res: ServerResponse,
  log: (event: LogEvent) => void,
  tokens: readonly string[],
): void {
  const started = performance.now();
  const exchange: Exchange = { route: 'other' };
  res.once('close', () => {
    const status = res.writableFinished ? String(res.statusCode) : 'aborted';
    ctx.metrics.answered(exchange.route, status);
    log({
      kind: 'access',
      remote: req.socket.remoteAddress ?? '-',
      method: req.method ?? '-',
      path: loggedTarget(req.url ?? '/', tokens),
      status,
      ms: performance.now() - started,
    });
  });
  handle(ctx, req, res, exchange).catch((err: unknown) => {
    // handle() catches everything it expects; this is the last line of defence.
    ctx.notice('error', `unhandled: ${String(err).slice(0, 300)}`);
    sendProblem(res, new LookupError('internal_error', 'An unexpected error occurred'));
  });
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
