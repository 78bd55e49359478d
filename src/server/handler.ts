// One request, start to finish. Order of checks: /healthz and /openapi.json (no token) → token
// (401) → /metrics → shutting down (503) → per-token rate limit (429) → route (404) → method
// (405) → parameters (400) → response cache → per-token concurrency budget (429) → work gate
// (queue, or 429 when the queue is full; 503 when the deadline passes in the queue) → the
// service call under the deadline (504 when it runs out).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LookupError, printable, toLookupError } from '../contract/errors';
import { openApiDocument } from '../contract/openapi';
import type { Operation } from '../contract/operations';
import type { Services } from '../contract/services';
import type { TokenSet } from './auth';
import { cacheKey, type ResponseCache } from './cache';
import type { InFlight } from './inflight';
import { LimitRefusal, type Admission, type TokenLimits, type WorkGate } from './limits';
import type { NoticeEvent } from './log';
import type { Refusal, ServerMetrics } from './metrics';
import { send, sendJson, sendJsonText, sendProblem } from './respond';
import { invoke } from '../contract/invoke';
import { parseParams, ROUTES, type ParsedParams } from './routes';

export interface HandlerContext {
  services: Services;
  tokens: TokenSet;
  limits: TokenLimits;
  gate: WorkGate;
  requestTimeoutMs: number;
  metrics: ServerMetrics;
  cache: ResponseCache | undefined;
  inFlight: InFlight;
  notice: (level: NoticeEvent['level'], msg: string) => void;
  closing: () => boolean;
}

/** What the access log and the metrics learn about a request once it is answered. */
export interface Exchange {
  /** `domain/query`, `healthz`… or `other`: never the raw path. */
  route: string;
}

// The refusal a limit's error stands for, for the refusals counter.
function refusalOf(err: LookupError, stage: 'rate' | 'budget' | 'gate'): Refusal | undefined {
  if (err.code === 'blocked_target') return 'guard';
  if (err.code !== 'rate_limited') return undefined;
  return stage === 'rate' ? 'rate_limit' : stage === 'budget' ? 'token_concurrency' : 'queue_full';
}

export async function handle(
  ctx: HandlerContext,
  req: IncomingMessage,
  res: ServerResponse,
  exchange: Exchange,
): Promise<void> {
  req.resume(); // GET bodies are not read; drain them so the connection stays usable
  if (ctx.closing()) res.setHeader('connection', 'close');
  // RFC 9112 section 3.2: a server responds 400 to an HTTP/1.1 request without Host.
  if (req.headers.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor >= 1) {
    res.setHeader('connection', 'close');
    return sendProblem(
      res,
      new LookupError('bad_request', 'An HTTP/1.1 request needs a Host header'),
    );
  }
  const url = requestUrl(req.url);
  const publicRoute = url && PUBLIC_ROUTES[url.pathname];
  if (publicRoute) {
    exchange.route = url.pathname.slice(1);
    if (req.method !== 'GET' && req.method !== 'HEAD') return methodNotAllowed(res);
    return publicRoute(ctx, res);
  }
  const who = ctx.tokens.match(req.headers.authorization);
  if (who < 0) {
    sendProblem(res, new LookupError('unauthorized', 'A valid API token is required'));
    return;
  }
  if (url?.pathname === '/metrics') {
    exchange.route = 'metrics';
    if (req.method !== 'GET') return methodNotAllowed(res);
    send(res, 200, ctx.metrics.contentType, await ctx.metrics.text());
    return;
  }
  if (ctx.closing()) return refuseWhileClosing(ctx, res);
  const key = ctx.tokens.keyOf(who);
  const op = url && ROUTES.get(url.pathname);
  if (op) exchange.route = `${op.service}${op.path}`;
  // A request the service cannot answer still spends its rate budget first: 429 comes before
  // 404, 405 and 400, as for a valid one.
  let refusal: LookupError | undefined;
  let params: ParsedParams | undefined;
  if (!url) refusal = new LookupError('invalid_argument', 'The request target is not a path');
  else if (!op) refusal = new LookupError('not_found', 'No such endpoint');
  else if (req.method === 'GET') {
    try {
      params = parseParams(op, url.searchParams);
    } catch (err) {
      refusal = toLookupError(err);
    }
  }
  if (!op || !params) {
    try {
      await ctx.limits.take(key);
    } catch (err) {
      return refuse(ctx, res, toLookupError(err), 'rate');
    }
    if (refusal) return sendProblem(res, refusal);
    return methodNotAllowed(res);
  }
  const started = performance.now();
  // A request the rate refuses is not timed: it never reached the operation.
  let reached = true;
  try {
    reached = await answer(ctx, res, op, params, key);
  } finally {
    if (reached) ctx.metrics.timed(op, (performance.now() - started) / 1000);
  }
}

/** Answers a refusal of a limit, counted by its reason. */
function refuse(
  ctx: HandlerContext,
  res: ServerResponse,
  problem: LookupError,
  stage: 'rate' | 'budget' | 'gate',
): void {
  const refusal = refusalOf(problem, stage);
  if (refusal) ctx.metrics.refused(refusal);
  sendProblem(res, problem);
}

async function answer(
  ctx: HandlerContext,
  res: ServerResponse,
  op: Operation,
  params: ParsedParams,
  key: string,
): Promise<boolean> {
  const cached = ctx.cache ? cacheKey(op, params) : undefined;
  // Rate, cache and concurrency in one step: one Redis round trip when limits are shared.
  let admission: Admission;
  try {
    admission = await ctx.limits.admit(key, cached && ctx.cache?.redisKey(cached));
  } catch (err) {
    const problem = toLookupError(err);
    const limit = problem instanceof LimitRefusal ? problem.limit : 'rate';
    // The rate refuses before the cache is asked; the budget only after a miss.
    if (cached !== undefined && limit === 'budget') ctx.metrics.cacheLookup(false);
    refuse(ctx, res, problem, limit);
    return limit !== 'rate';
  }
  if (cached !== undefined) ctx.metrics.cacheLookup(admission.cached !== undefined);
  if (admission.cached !== undefined) {
    sendJsonText(res, admission.cached);
    return true;
  }
  const leave = admission.leave;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, ctx.requestTimeoutMs);
  const onClose = () => {
    if (!res.writableFinished) controller.abort();
  };
  res.on('close', onClose);
  const untrack = ctx.inFlight.add(controller, res);
  let stage: 'gate' | 'work' = 'gate';
  let release: (() => void) | undefined;
  let upstreamStarted = 0;
  try {
    release = await ctx.gate.acquire(controller.signal);
    stage = 'work';
    upstreamStarted = performance.now();
    const result = await invoke(ctx.services, op, params, { signal: controller.signal });
    if (controller.signal.aborted) throw new LookupError('cancelled', 'cancelled');
    const json = sendJson(res, result);
    if (ctx.cache && cached !== undefined) ctx.cache.put(cached, op, result, json);
  } catch (err) {
    let problem = toLookupError(err);
    if (timedOut && (problem.code === 'cancelled' || controller.signal.aborted)) {
      problem =
        stage === 'work'
          ? new LookupError('upstream_timeout', 'The lookup took too long')
          : // Nothing upstream was asked: the request waited its whole deadline for a worker.
            new LookupError('overloaded', 'The server is too busy to start the request in time', {
              retryAfter: 1,
            });
      if (stage !== 'work') ctx.metrics.refused('queue_expired');
    } else if (stage !== 'work') {
      const refusal = refusalOf(problem, stage);
      if (refusal) ctx.metrics.refused(refusal);
    } else if (problem.code === 'blocked_target') {
      ctx.metrics.refused('guard');
    }
    if (problem.code === 'internal_error') {
      const cause = problem.cause instanceof Error ? problem.cause : problem;
      ctx.notice(
        'error',
        `${op.service}${op.path}: ${printable(`${cause.name}: ${cause.message}`, 300)}`,
      );
    }
    sendProblem(res, problem);
  } finally {
    // Failures take upstream time too; what waited for a worker never reached upstream.
    if (stage === 'work')
      ctx.metrics.upstreamTimed(op, (performance.now() - upstreamStarted) / 1000);
    clearTimeout(timer);
    release?.();
    leave();
    untrack();
    res.off('close', onClose);
  }
  return true;
}

type PublicRoute = (ctx: HandlerContext, res: ServerResponse) => void;

const PUBLIC_ROUTES: Record<string, PublicRoute | undefined> = {
  // A load balancer takes an instance out of rotation when this stops answering 200.
  '/healthz': (ctx, res) =>
    ctx.closing() ? refuseWhileClosing(ctx, res) : sendJson(res, { status: 'ok' }),
  '/openapi.json': (_ctx, res) => void sendJson(res, openApiDocument()),
};

function refuseWhileClosing(ctx: HandlerContext, res: ServerResponse): void {
  ctx.metrics.refused('shutdown');
  sendProblem(
    res,
    new LookupError('overloaded', 'The server is shutting down; retry on another instance', {
      retryAfter: 1,
    }),
  );
}

function methodNotAllowed(res: ServerResponse): void {
  const err = new LookupError('method_not_allowed', 'Only GET is supported');
  sendProblem(res, err, { headers: { allow: 'GET' } });
}

/** The request target (origin or absolute form) as a URL; undefined for anything else. */
export function requestUrl(target: string | undefined): URL | undefined {
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
