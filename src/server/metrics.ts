// GET /metrics: what an operator watches, in the Prometheus text format. Labels hold only
// values from fixed sets (routes of the operation table, status codes, operation names,
// upstream kinds, refusal reasons): never a token, a host name or a raw path.
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Operation } from '../contract/operations';
import type { RedisState } from './redis';

/** The kind of upstream an operation talks to, for the upstream latency histogram. */
export function upstreamKind(op: Operation): 'dns' | 'whois' | 'web' {
  if (op.service === 'meta') return 'web';
  return op.name === 'whois' ? 'whois' : 'dns';
}

export type Refusal =
  'rate_limit' | 'token_concurrency' | 'queue_full' | 'queue_expired' | 'guard' | 'shutdown';

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export class ServerMetrics {
  readonly registry = new Registry();
  private readonly requests = this.counter(
    'hostlens_http_requests_total',
    'HTTP requests answered, by route and status',
    ['route', 'status'],
  );
  private readonly duration = this.seconds(
    'hostlens_request_duration_seconds',
    'Time from a request to its answer, per operation (queueing included)',
    'operation',
  );
  private readonly upstream = this.seconds(
    'hostlens_upstream_duration_seconds',
    'Time the service call took once it had a worker, per upstream kind',
    'kind',
  );
  private readonly refusals = this.counter(
    'hostlens_refusals_total',
    'Requests refused by a limit or by the address guard, by reason',
    ['reason'],
  );
  private readonly cache = this.counter(
    'hostlens_cache_lookups_total',
    'Response cache look-ups, by result (hit or miss)',
    ['result'],
  );
  private readonly redisUp = new Gauge({
    name: 'hostlens_redis_up',
    help: '1 while the shared Redis is used, 0 while limits are per instance (degraded)',
    registers: [this.registry],
  });
  private readonly redisConfigured = new Gauge({
    name: 'hostlens_redis_configured',
    help: '1 when HOSTLENS_REDIS_URL is set',
    registers: [this.registry],
  });
  private readonly redisFallbacks = this.counter(
    'hostlens_redis_fallbacks_total',
    'Times the instance lost Redis and fell back to local limits',
    [],
  );

  constructor() {
    this.redisUp.set(0);
    this.redisConfigured.set(0);
    for (const reason of ['rate_limit', 'token_concurrency', 'queue_full', 'queue_expired']) {
      this.refusals.inc({ reason }, 0);
    }
  }

  private counter<L extends string>(name: string, help: string, labelNames: L[]): Counter<L> {
    return new Counter({ name, help, labelNames, registers: [this.registry] });
  }

  /** A latency histogram in seconds, by one label. */
  private seconds<L extends string>(name: string, help: string, label: L): Histogram<L> {
    return new Histogram({
      name,
      help,
      labelNames: [label],
      buckets: SECONDS,
      registers: [this.registry],
    });
  }

  answered(route: string, status: number | string): void {
    this.requests.inc({ route, status: String(status) });
  }

  timed(op: Operation, seconds: number): void {
    this.duration.observe({ operation: op.name }, seconds);
  }

  upstreamTimed(op: Operation, seconds: number): void {
    this.upstream.observe({ kind: upstreamKind(op) }, seconds);
  }

  refused(reason: Refusal): void {
    this.refusals.inc({ reason });
  }

  cacheLookup(hit: boolean): void {
    this.cache.inc({ result: hit ? 'hit' : 'miss' });
  }

  redis(state: RedisState | 'configured'): void {
    if (state === 'configured') {
      this.redisConfigured.set(1);
      return;
    }
    this.redisUp.set(state === 'shared' ? 1 : 0);
    if (state === 'local') this.redisFallbacks.inc();
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
