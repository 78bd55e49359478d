// Per-token limits kept in Redis, so N instances behind a load balancer enforce one budget.
// Each check is a Lua script, atomic on the Redis server and timed by the Redis clock, so
// instances with skewed clocks still agree. Valid requests are admitted in batches: the
// admissions asked for in one turn of the event loop go to Redis as one script (rate, cached
// answer, slot for each, in arrival order), so a request costs at most one round trip and a busy
// instance pays one command, one write and one read for many. When Redis cannot be used the same
// checks run on this instance's LocalLimits: the budget is then per instance until Redis is back.
import {
  concurrencyRefusal,
  rateRefusal,
  type Admission,
  type LocalLimits,
  type TokenLimits,
} from './limits';
import type { RedisLink } from './redis';

// The Redis clock in ms, and the two limits as Lua functions the scripts below share.
// refill/store: the token bucket, refilled by elapsed time, read and written back (a batch
// reads each bucket once and writes it once, whatever it took). take: takes one if there is one
// and answers (1 or 0, tokens left). enter: the open requests, a sorted set scored by when each
// lease runs out, so the slots of an instance that died come back by themselves; answers 1 when
// a slot was taken.
const PRELUDE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local function refill(key, burst, per_ms)
  local b = redis.call('HMGET', key, 'tokens', 'updated')
  local tokens = tonumber(b[1]) or burst
  local updated = tonumber(b[2]) or now
  return math.min(burst, tokens + math.max(0, now - updated) * per_ms)
end
local function store(key, tokens, burst, per_ms)
  redis.call('HSET', key, 'tokens', tostring(tokens), 'updated', tostring(now))
  redis.call('PEXPIRE', key, math.ceil(burst / per_ms) + 1000)
end
local function take(key, burst, per_ms)
  local tokens = refill(key, burst, per_ms)
  local taken = 0
  if tokens >= 1 then
    tokens = tokens - 1
    taken = 1
  end
  store(key, tokens, burst, per_ms)
  return taken, tokens
end
local function enter(key, max, lease, member)
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
  if redis.call('ZCARD', key) >= max then
    return 0
  end
  redis.call('ZADD', key, now + lease, member)
  redis.call('PEXPIRE', key, math.ceil(lease))
  return 1
end
`;

// KEYS: bucket; ARGV: burst, per ms. Returns {taken, tokens left}.
const TAKE = `${PRELUDE}
local taken, tokens = take(KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]))
return {taken, tostring(tokens)}
`;

// KEYS: open set; ARGV: max, lease ms, member. Returns 1 when a slot was taken.
const ENTER = `${PRELUDE}
return enter(KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3])
`;

// What valid requests need before any work, for a batch of them in one round trip. KEYS: the
// bucket and open set of each token asked for (KEYS[2t - 1], KEYS[2t] for token t), then the
// cache entries asked for. ARGV: burst, per ms, max, lease ms, the instance's member prefix, the
// batch's first sequence number, the number of tokens, and the requests as "token entry" pairs
// (entry 0 when the cache is not asked). Each request in order, as if alone: its rate first,
// then its cached answer, then a slot (member prefix:sequence). Each bucket is read and written
// once, each entry read once. Returns {outcomes, refs, values}: a request's outcome (0 the rate
// refused, 1 a cached answer, 2 the concurrency budget refused, 3 a slot taken) and, for 0 and
// 1, where its tokens left or its answer are in values: an answer goes back once, however many
// requests of the batch it answers.
const ADMIT = `${PRELUDE}
local burst, per_ms = tonumber(ARGV[1]), tonumber(ARGV[2])
local max, lease = tonumber(ARGV[3]), tonumber(ARGV[4])
local member, seq, token_count = ARGV[5], tonumber(ARGV[6]), tonumber(ARGV[7])
local buckets = {}
local answer_at = {}
local outcomes, refs, values = {}, {}, {}
local i = 0
for t, e in string.gmatch(ARGV[8], '(%d+) (%d+)') do
  i = i + 1
  t, e = tonumber(t), tonumber(e)
  local tokens = buckets[t] or refill(KEYS[2 * t - 1], burst, per_ms)
  local outcome, ref = 3, 0
  if tokens < 1 then
    values[#values + 1] = tostring(tokens)
    outcome, ref = 0, #values
  else
    tokens = tokens - 1
    local at = false
    if e > 0 then
      at = answer_at[e]
      if at == nil then
        local cached = redis.call('GET', KEYS[2 * token_count + e])
        at = false
        if cached then
          values[#values + 1] = cached
          at = #values
        end
        answer_at[e] = at
      end
    end
    if at then
      outcome, ref = 1, at
    elseif enter(KEYS[2 * t], max, lease, member .. ':' .. (seq + i - 1)) == 0 then
      outcome = 2
    end
  end
  buckets[t] = tokens
  outcomes[i], refs[i] = outcome, ref
end
for t, tokens in pairs(buckets) do
  store(KEYS[2 * t - 1], tokens, burst, per_ms)
end
return {outcomes, refs, values}
`;

/** ADMIT's reply: each request's outcome and reference into the values. */
type AdmitReply = [outcomes: number[], refs: number[], values: string[]];

/** An admission waiting for its batch to go to Redis. */
interface Waiting {
  key: string;
  /** '' when the cache is off */
  cacheKey: string;
  resolve: (admission: Admission) => void;
  reject: (err: unknown) => void;
}

/**
 * Admissions sent at most in one script call: a larger batch goes out at once, and the rest of
 * the turn's in the next (a bound on the script's time in Redis, which runs nothing else then).
 */
const MAX_BATCH = 128;

/** The scripts as client commands: ioredis sends each by its SHA1 once Redis knows it. */
interface LimitCommands {
  hostlensTake(key: string, burst: number, perMs: number): Promise<[number, string]>;
  hostlensEnter(key: string, max: number, leaseMs: number, member: string): Promise<number>;
  /** numberOfKeys first: a batch has three keys a request. */
  hostlensAdmit(numberOfKeys: number, ...keysThenArgs: (string | number)[]): Promise<AdmitReply>;
}

export class SharedLimits implements TokenLimits {
  private seq = 0;
  private readonly instance = `${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
  private readonly commands: LimitCommands;
  private waiting: Waiting[] = [];

  constructor(
    private readonly redis: RedisLink,
    private readonly local: LocalLimits,
    /** How long a slot is held at most: the request deadline and a margin. */
    private readonly leaseMs: number,
  ) {
    redis.client.defineCommand('hostlensTake', { numberOfKeys: 1, lua: TAKE });
    redis.client.defineCommand('hostlensEnter', { numberOfKeys: 1, lua: ENTER });
    redis.client.defineCommand('hostlensAdmit', { lua: ADMIT });
    // A batch is already one command for many requests: it goes out as soon as it is made
    // rather than wait another turn for the client's own pipeline.
    // A slot's release goes out at once too: were it left for the pipeline's next turn, an
    // admission batch sent first would still count that slot as open and refuse a request the
    // budget has room for (50 clients under a budget of 64 were refused this way).
    redis.client.options.autoPipeliningIgnoredCommands ??= [];
    redis.client.options.autoPipeliningIgnoredCommands.push('hostlensAdmit', 'zrem');
    this.commands = redis.client as unknown as LimitCommands;
  }

  /** The command's reply; undefined when Redis failed (marked so: the local limits serve). */
  private async unlessRedisFails<T>(command: () => Promise<T>): Promise<T | undefined> {
    try {
      return await command();
    } catch (err) {
      this.redis.failed(err);
      return undefined;
    }
  }

  async take(key: string): Promise<void> {
    if (this.redis.usable) {
      const { burst, perMs } = this.local.rate;
      const reply = await this.unlessRedisFails(() =>
        this.commands.hostlensTake(this.rateKey(key), burst, perMs),
      );
      if (reply) {
        if (reply[0] === 1) return;
        throw rateRefusal(Number(reply[1]), perMs);
      }
    }
    return this.local.take(key);
  }

  async enter(key: string): Promise<() => void> {
    if (this.redis.usable) {
      const setKey = this.openKey(key);
      const member = `${this.instance}:${++this.seq}`;
      const taken = await this.unlessRedisFails(() =>
        this.commands.hostlensEnter(setKey, this.local.budget.max, this.leaseMs, member),
      );
      if (taken === 0) throw concurrencyRefusal(this.local.budget.max);
      if (taken === 1) return this.leaver(setKey, member);
    }
    return this.local.enter(key);
  }

  admit(key: string, cacheKey: string | undefined): Promise<Admission> {
    if (!this.redis.usable) return this.local.admit(key);
    return new Promise<Admission>((resolve, reject) => {
      this.waiting.push({ key, cacheKey: cacheKey ?? '', resolve, reject });
      if (this.waiting.length === 1) setImmediate(this.sendWaiting);
      else if (this.waiting.length >= MAX_BATCH) this.sendWaiting();
    });
  }

  /** Sends the admissions asked for since the last batch as one script call. */
  private readonly sendWaiting = (): void => {
    const batch = this.waiting;
    if (batch.length === 0) return;
    this.waiting = [];
    if (!this.redis.usable) return this.admitLocally(batch);
    // Each token's keys and each cache entry once, however many requests name them.
    const tokenAt = new Map<string, number>();
    const entryAt = new Map<string, number>();
    const tokenKeys: string[] = [];
    const entryKeys: string[] = [];
    let requests = '';
    for (const one of batch) {
      let t = tokenAt.get(one.key);
      if (t === undefined) {
        t = tokenAt.size + 1;
        tokenAt.set(one.key, t);
        tokenKeys.push(this.rateKey(one.key), this.openKey(one.key));
      }
      let e = one.cacheKey === '' ? 0 : entryAt.get(one.cacheKey);
      if (e === undefined) {
        e = entryAt.size + 1;
        entryAt.set(one.cacheKey, e);
        entryKeys.push(one.cacheKey);
      }
      requests += `${t} ${e} `;
    }
    const firstSeq = this.seq + 1;
    this.seq += batch.length;
    const { burst, perMs } = this.local.rate;
    this.commands
      .hostlensAdmit(
        tokenKeys.length + entryKeys.length,
        ...tokenKeys,
        ...entryKeys,
        burst,
        perMs,
        this.local.budget.max,
        this.leaseMs,
        this.instance,
        firstSeq,
        tokenAt.size,
        requests,
      )
      .then(
        ([outcomes, refs, values]) => {
          batch.forEach((one, i) => {
            const outcome = outcomes[i];
            const value = values[refs[i] - 1];
            if (outcome === 0) one.reject(rateRefusal(Number(value), perMs));
            else if (outcome === 1) one.resolve({ cached: value });
            else if (outcome === 2) one.reject(concurrencyRefusal(this.local.budget.max));
            else {
              const member = `${this.instance}:${firstSeq + i}`;
              one.resolve({ leave: this.leaver(this.openKey(one.key), member) });
            }
          });
        },
        (err: unknown) => {
          this.redis.failed(err);
          this.admitLocally(batch);
        },
      );
  };

  /** Redis failed or went away: this instance's limits decide, as for any request meanwhile. */
  private admitLocally(batch: Waiting[]): void {
    for (const one of batch) this.local.admit(one.key).then(one.resolve, one.reject);
  }

  private rateKey(key: string): string {
    return `${this.redis.keyPrefix}rate:${key}`;
  }

  private openKey(key: string): string {
    return `${this.redis.keyPrefix}open:${key}`;
  }

  private leaver(setKey: string, member: string): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      // A lost release only holds the slot until its lease runs out.
      if (this.redis.usable) this.redis.client.zrem(setKey, member).catch(() => undefined);
    };
  }
}
