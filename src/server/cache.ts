// The optional response cache in Redis (HOSTLENS_CACHE=1 beside HOSTLENS_REDIS_URL). An entry is
// the answer's JSON text, keyed by the normalised request, and lives no longer than the answer
// is true for: a DNS answer for the shortest TTL of its records; a web or WHOIS answer for a
// short configurable time. Answers whose freshness cannot be told (no record TTLs, partial
// failures, empty answers) and every error are not cached.
import type { Operation } from '../contract/operations';
import type { QueryResult } from '../contract/shapes';
import type { RedisLink } from './redis';
import type { ParsedParams } from './routes';

export interface CacheOptions {
  /** Lifetime of web (meta) and WHOIS answers. Default 60 s. */
  webTtlMs?: number;
  /**
   * What the instance's address guard allows ('guarded', 'open', or the allowed ranges): part
   * of every key, so an answer fetched by an instance that may reach private addresses is never
   * served by a guarded one sharing the Redis. Default 'unknown', shared with no declared policy.
   */
  scope?: string;
}

/**
 * No answer is kept longer than this, whatever its TTLs say (a day, as resolvers cap it:
 * RFC 8767 section 4 suggests at most 7 days; a looking glass should be fresher).
 */
export const MAX_CACHE_LIFE_MS = 86_400_000;

/** The request as the service sees it: parameters in the operation's order, types upper-cased. */
export function cacheKey(op: Operation, params: ParsedParams): string {
  const parts: string[] = [];
  for (const spec of op.params) {
    const value = params[spec.name];
    if (value === undefined) continue;
    const values = Array.isArray(value) ? value : [value];
    const normal = spec.name === 'types' ? values.map((v) => v.toUpperCase()) : values;
    for (const v of normal) parts.push(`${spec.name}=${encodeURIComponent(v)}`);
  }
  return `${op.service}${op.path}?${parts.join('&')}`;
}

/** How long the answer may be served from the cache, in ms; 0 when it may not be cached. */
export function cacheLifetimeMs(op: Operation, result: unknown, webTtlMs: number): number {
  return Math.min(MAX_CACHE_LIFE_MS, uncappedLifetimeMs(op, result, webTtlMs));
}

function uncappedLifetimeMs(op: Operation, result: unknown, webTtlMs: number): number {
  if (op.service === 'meta' || op.name === 'whois') return webTtlMs;
  if (op.name !== 'query') return 0;
  const answer = result as QueryResult;
  if (answer.errors !== undefined || answer.records.length === 0) return 0;
  let shortest = Infinity;
  for (const record of answer.records) {
    // RFC 2181 section 8: a TTL with the top bit set means zero (the engine reads it so).
    if (record.ttl === undefined || record.ttl >= 0x80000000) return 0;
    shortest = Math.min(shortest, record.ttl);
  }
  return shortest * 1000;
}

export class ResponseCache {
  private readonly webTtlMs: number;
  private readonly scope: string;

  constructor(
    private readonly redis: RedisLink,
    options: CacheOptions = {},
  ) {
    this.webTtlMs = options.webTtlMs ?? 60_000;
    this.scope = encodeURIComponent(options.scope ?? 'unknown');
  }

  /** Stores the answer for as long as it stays true; never waits for Redis. */
  put(key: string, op: Operation, result: unknown, json: string): void {
    const lifetime = Math.floor(cacheLifetimeMs(op, result, this.webTtlMs));
    if (lifetime <= 0 || !this.redis.usable) return;
    this.redis.client
      .set(this.redisKey(key), json, 'PX', lifetime)
      .catch((err: unknown) => this.redis.failed(err));
  }

  /**
   * Where the answer to `key` lives in Redis. The request's admission reads it there (in the
   * same script as the limits: TokenLimits.admit), so a cached answer costs one round trip.
   */
  redisKey(key: string): string {
    return `${this.redis.keyPrefix}cache:${this.scope}:${key}`;
  }
}
