// The server's load limits: per API token, a token bucket (429 with Retry-After) and a budget
// of requests open at once; per instance, a gate on concurrent upstream work. The gate queues a
// bounded number of requests and answers 429 `rate_limited` (Retry-After: 1) when the queue is
// full too, so callers get the one contract code for "slow down" and the server never holds an
// unbounded backlog. The per-token limits sit behind TokenLimits so that several instances can
// keep them in Redis (shared-limits.ts); these are the in-process ones.
import { LookupError } from '../contract/errors';

/** A request let through: its cached answer, or its slot in the concurrency budget. */
export type Admission = { cached: string } | { cached?: undefined; leave: () => void };

/** Per-token limits, keyed by a stable id of the token (never the token itself). */
export interface TokenLimits {
  /** Takes one request from the key's rate budget; rejects with `rate_limited` when spent. */
  take(key: string): Promise<void>;
  /** Opens one request in the key's concurrency budget; the function closes it. */
  enter(key: string): Promise<() => void>;
  /**
   * take(), then the cached answer under `cacheKey` (the Redis key of the response cache, when
   * it is on), then enter() when nothing was cached: what a valid request needs before any
   * work, in one step (one round trip with Redis).
   */
  admit(key: string, cacheKey: string | undefined): Promise<Admission>;
}

/** A 429 of a per-token limit, saying which one refused (for the refusals counter). */
export class LimitRefusal extends LookupError {
  constructor(
    readonly limit: 'rate' | 'budget',
    detail: string,
    retryAfter: number,
  ) {
    super('rate_limited', detail, { retryAfter });
  }
}

export function concurrencyRefusal(max: number): LookupError {
  return new LimitRefusal(
    'budget',
    `Too many requests open at once for this token (at most ${max}); retry shortly`,
    1,
  );
}

/** How many requests each key has open, refusing past `max`. */
export class ConcurrencyBudget {
  private readonly open = new Map<string, number>();

  constructor(readonly max: number) {
    if (!(max >= 1)) throw new Error('the per-token concurrency budget must be at least 1');
  }

  enter(key: string): () => void {
    const count = this.open.get(key) ?? 0;
    if (count >= this.max) throw concurrencyRefusal(this.max);
    this.open.set(key, count + 1);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const left = (this.open.get(key) ?? 1) - 1;
      if (left <= 0) this.open.delete(key);
      else this.open.set(key, left);
    };
  }
}

/** Both per-token limits, in this process. */
export class LocalLimits implements TokenLimits {
  constructor(
    readonly rate: RateLimiter,
    readonly budget: ConcurrencyBudget,
  ) {}

  // async, so a refusal is a rejected promise like SharedLimits' and never a throw.
  // eslint-disable-next-line @typescript-eslint/require-await
  async take(key: string): Promise<void> {
    this.rate.take(key);
  }

  // eslint-disable-next-line @typescript-eslint/require-await
  async enter(key: string): Promise<() => void> {
    return this.budget.enter(key);
  }

  /** No cache without Redis: the rate budget, then a slot. */
  // eslint-disable-next-line @typescript-eslint/require-await
  async admit(key: string): Promise<Admission> {
    this.rate.take(key);
    return { leave: this.budget.enter(key) };
  }
}

export interface RateLimitOptions {
  perMinute: number;
  /** Bucket size: how many requests may arrive at once. Default: perMinute / 6, at least 1. */
  burst?: number;
}

interface Bucket {
  tokens: number;
  updated: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string | number, Bucket>();
  readonly perMs: number;
  readonly burst: number;

  constructor(
    options: RateLimitOptions,
    private readonly now: () => number = () => performance.now(),
  ) {
    if (!(options.perMinute > 0)) throw new Error('rateLimit.perMinute must be positive');
    this.perMs = options.perMinute / 60_000;
    this.burst = Math.max(1, Math.floor(options.burst ?? options.perMinute / 6));
  }

  /** Takes one request from the key's bucket; throws `rate_limited` when it is empty. */
  take(key: string | number): void {
    const now = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, updated: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + (now - bucket.updated) * this.perMs);
    bucket.updated = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return;
    }
    throw rateRefusal(bucket.tokens, this.perMs);
  }
}

/** The 429 for a bucket holding `tokens` (< 1) that refills at `perMs` a millisecond. */
export function rateRefusal(tokens: number, perMs: number): LookupError {
  const retryAfter = Math.max(1, Math.ceil((1 - tokens) / perMs / 1000));
  return new LimitRefusal('rate', `Too many requests; retry in ${retryAfter} s`, retryAfter);
}

interface Waiter {
  resolve: () => void;
  reject: (err: LookupError) => void;
}

export class WorkGate {
  private running = 0;
  private readonly queue: Waiter[] = [];

  constructor(
    readonly maxConcurrent: number,
    readonly maxQueued: number,
  ) {
    if (!(maxConcurrent >= 1)) throw new Error('maxConcurrent must be at least 1');
  }

  get active(): number {
    return this.running;
  }

  get queued(): number {
    return this.queue.length;
  }

  /** Resolves with a release function once a slot is free. */
  async acquire(signal: AbortSignal): Promise<() => void> {
    if (this.running < this.maxConcurrent) {
      this.running++;
      return this.releaser();
    }
    if (this.queue.length >= this.maxQueued) {
      throw new LookupError('rate_limited', 'The server is busy; retry shortly', { retryAfter: 1 });
    }
    await new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        resolve: () => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        },
        reject,
      };
      const onAbort = () => {
        const at = this.queue.indexOf(waiter);
        if (at >= 0) this.queue.splice(at, 1);
        reject(new LookupError('cancelled', 'The request was cancelled while queued'));
      };
      if (signal.aborted) {
        onAbort();
        return;
      }
      signal.addEventListener('abort', onAbort, { once: true });
      this.queue.push(waiter);
    });
    return this.releaser();
  }

  private releaser(): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const next = this.queue.shift();
      // The slot passes straight to the next waiter, so `running` stays the same.
      if (next) next.resolve();
      else this.running--;
    };
  }
}
