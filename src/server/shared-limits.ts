// Per-token limits kept in Redis, so N instances behind a load balancer enforce one budget.
// A valid request is admitted by one Lua script (rate, cached answer, slot: one round trip);
// each check is a Lua script, atomic on the Redis server and timed by the Redis clock, so
// instances with skewed clocks still agree. When Redis cannot be used the same check runs on
// this instance's LocalLimits: the budget is then per instance until Redis is back.
import {
  concurrencyRefusal,
  rateRefusal,
  type Admission,
  type LocalLimits,
  type TokenLimits,
} from './limits';
import type { RedisLink } from './redis';

// The Redis clock in ms, and the two limits as Lua functions the scripts below share.
// take: the token bucket, refilled by elapsed time; takes one if there is one and answers
// (1 or 0, tokens left). enter: the open requests, a sorted set scored by when each lease runs
// out, so the slots of an instance that died come back by themselves; answers 1 when a slot
// was taken.
const PRELUDE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local function take(key, burst, per_ms)
  local b = redis.call('HMGET', key, 'tokens', 'updated')
  local tokens = tonumber(b[1]) or burst
  local updated = tonumber(b[2]) or now
  tokens = math.min(burst, tokens + math.max(0, now - updated) * per_ms)
  local taken = 0
  if tokens >= 1 then
    tokens = tokens - 1
    taken = 1
  end
  redis.call('HSET', key, 'tokens', tostring(tokens), 'updated', tostring(now))
  redis.call('PEXPIRE', key, math.ceil(burst / per_ms) + 1000)
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

// What a valid request needs before any work, in one round trip. KEYS: bucket, open set,
// cache entry ('' when the cache is off); ARGV: burst, per ms, max, lease ms, member.
// Returns {0, tokens left} when the rate refuses, {1, answer} for a cached answer (no slot
// taken), {2} when the concurrency budget refuses, {3} when a slot was taken.
const ADMIT = `${PRELUDE}
local taken, tokens = take(KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]))
if taken == 0 then
  return {0, tostring(tokens)}
end
if KEYS[3] ~= '' then
  local cached = redis.call('GET', KEYS[3])
  if cached then
    return {1, cached}
  end
end
if enter(KEYS[2], tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[5]) == 1 then
  return {3}
end
return {2}
`;

/** The scripts as client commands: ioredis sends each by its SHA1 once Redis knows it. */
interface LimitCommands {
  hostlensTake(key: string, burst: number, perMs: number): Promise<[number, string]>;
  hostlensEnter(key: string, max: number, leaseMs: number, member: string): Promise<number>;
  hostlensAdmit(
    rateKey: string,
    openKey: string,
    cacheKey: string,
    burst: number,
    perMs: number,
    max: number,
    leaseMs: number,
    member: string,
  ): Promise<[0, string] | [1, string] | [2] | [3]>;
}

export class SharedLimits implements TokenLimits {
  private seq = 0;
  private readonly instance = `${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
  private readonly commands: LimitCommands;

  constructor(
    private readonly redis: RedisLink,
    private readonly local: LocalLimits,
    /** How long a slot is held at most: the request deadline and a margin. */
    private readonly leaseMs: number,
  ) {
    redis.client.defineCommand('hostlensTake', { numberOfKeys: 1, lua: TAKE });
    redis.client.defineCommand('hostlensEnter', { numberOfKeys: 1, lua: ENTER });
    redis.client.defineCommand('hostlensAdmit', { numberOfKeys: 3, lua: ADMIT });
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
        this.commands.hostlensTake(`${this.redis.keyPrefix}rate:${key}`, burst, perMs),
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
      const setKey = `${this.redis.keyPrefix}open:${key}`;
      const member = `${this.instance}:${++this.seq}`;
      const taken = await this.unlessRedisFails(() =>
        this.commands.hostlensEnter(setKey, this.local.budget.max, this.leaseMs, member),
      );
      if (taken === 0) throw concurrencyRefusal(this.local.budget.max);
      if (taken === 1) return this.leaver(setKey, member);
    }
    return this.local.enter(key);
  }

  async admit(key: string, cacheKey: string | undefined): Promise<Admission> {
    if (this.redis.usable) {
      const { burst, perMs } = this.local.rate;
      const openKey = `${this.redis.keyPrefix}open:${key}`;
      const member = `${this.instance}:${++this.seq}`;
      const reply = await this.unlessRedisFails(() =>
        this.commands.hostlensAdmit(
          `${this.redis.keyPrefix}rate:${key}`,
          openKey,
          cacheKey ?? '',
          burst,
          perMs,
          this.local.budget.max,
          this.leaseMs,
          member,
        ),
      );
      if (reply) {
        if (reply[0] === 0) throw rateRefusal(Number(reply[1]), perMs);
        if (reply[0] === 1) return { cached: reply[1] };
        if (reply[0] === 2) throw concurrencyRefusal(this.local.budget.max);
        return { leave: this.leaver(openKey, member) };
      }
    }
    return this.local.admit(key);
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
