// Per-token limits kept in Redis, so N instances behind a load balancer enforce one budget.
// Each check is one Lua script, atomic on the Redis server and timed by the Redis clock, so
// instances with skewed clocks still agree. When Redis cannot be used the same check runs on
// this instance's LocalLimits: the budget is then per instance until Redis is back.
import { concurrencyRefusal, rateRefusal, type LocalLimits, type TokenLimits } from './limits';
import type { RedisLink } from './redis';

// Token bucket: refill by elapsed time, take one if there is one. Returns {taken, tokens left}.
const TAKE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local burst = tonumber(ARGV[1])
local per_ms = tonumber(ARGV[2])
local b = redis.call('HMGET', KEYS[1], 'tokens', 'updated')
local tokens = tonumber(b[1]) or burst
local updated = tonumber(b[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - updated) * per_ms)
local taken = 0
if tokens >= 1 then
  tokens = tokens - 1
  taken = 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'updated', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / per_ms) + 1000)
return {taken, tostring(tokens)}
`;

// Concurrency: a sorted set of open requests scored by when their lease runs out, so the slots
// of an instance that died come back by themselves. Returns 1 when a slot was taken.
const ENTER = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then
  return 0
end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
return 1
`;

/** The scripts as client commands: ioredis sends each by its SHA1 once Redis knows it. */
interface LimitCommands {
  hostlensTake(key: string, burst: number, perMs: number): Promise<[number, string]>;
  hostlensEnter(key: string, max: number, leaseMs: number, member: string): Promise<number>;
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
    this.commands = redis.client as unknown as LimitCommands;
  }

  async take(key: string): Promise<void> {
    if (this.redis.usable) {
      const { burst, perMs } = this.local.rate;
      let reply: [number, string] | undefined;
      try {
        reply = await this.commands.hostlensTake(
          `${this.redis.keyPrefix}rate:${key}`,
          burst,
          perMs,
        );
      } catch (err) {
        this.redis.failed(err);
      }
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
      let taken: number | undefined;
      try {
        taken = await this.commands.hostlensEnter(
          setKey,
          this.local.budget.max,
          this.leaseMs,
          member,
        );
      } catch (err) {
        this.redis.failed(err);
      }
      if (taken === 0) throw concurrencyRefusal(this.local.budget.max);
      if (taken === 1) {
        return () => {
          // A lost release only holds the slot until its lease runs out.
          if (this.redis.usable) {
            this.redis.client.zrem(setKey, member).catch(() => undefined);
          }
        };
      }
    }
    return this.local.enter(key);
  }
}
