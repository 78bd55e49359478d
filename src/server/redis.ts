// The link to the Redis that several instances share (HOSTLENS_REDIS_URL). Commands are never
// queued while the link is down: a caller asks `usable` first and falls back to its local
// state, so an unreachable Redis makes the server degraded (limits per instance, no cache),
// never down. State changes are reported once each, without the URL (it may hold a password).
import { Redis } from 'ioredis';

export type RedisState = 'shared' | 'local';

export interface RedisLinkOptions {
  url: string;
  /** Longest wait for one command before the caller falls back. Default 250 ms. */
  commandTimeoutMs?: number;
  /** Prefix of every key, so several deployments can share one Redis. Default `hostlens:`. */
  keyPrefix?: string;
  onState?: (state: RedisState, reason: string) => void;
}

export class RedisLink {
  readonly client: Redis;
  readonly keyPrefix: string;
  // 'starting' until the first connect succeeds or fails, so either outcome is reported.
  private state: RedisState | 'starting' = 'starting';
  private readonly onState: (state: RedisState, reason: string) => void;

  constructor(options: RedisLinkOptions) {
    this.keyPrefix = options.keyPrefix ?? 'hostlens:';
    this.onState = options.onState ?? (() => undefined);
    this.client = new Redis(options.url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: options.commandTimeoutMs ?? 250,
      connectTimeout: 2_000,
      // Commands issued in one tick (a release and a cache write; many requests' admissions)
      // go out in one write.
      enableAutoPipelining: true,
      // Keep trying for as long as the server runs, at most every 2 s.
      retryStrategy: (attempt) => Math.min(100 * attempt, 2_000),
    });
    this.client.on('ready', () => this.set('shared', 'connected'));
    this.client.on('error', (err: NodeJS.ErrnoException) => this.failed(err));
    this.client.on('close', () => this.set('local', 'connection closed'));
    this.client.connect().catch((err: unknown) => this.failed(err));
  }

  get current(): RedisState {
    return this.state === 'shared' ? 'shared' : 'local';
  }

  /** Whether a command may be sent now; when false, use local state instead. */
  get usable(): boolean {
    return this.state === 'shared' && this.client.status === 'ready';
  }

  /** A command failed or timed out: count Redis out until it says it is ready again. */
  failed(err: unknown): void {
    const code = (err as NodeJS.ErrnoException | undefined)?.code;
    const message = err instanceof Error ? err.message : String(err);
    const reason = code ?? (/timed? ?out/i.test(message) ? 'command timeout' : 'command failed');
    this.set('local', reason);
    // A timeout leaves the socket open, so no 'ready' would follow: reconnect to find out.
    if (this.client.status === 'ready') this.client.disconnect(true);
  }

  private set(state: RedisState, reason: string): void {
    if (state === this.state) return;
    this.state = state;
    this.onState(state, reason);
  }

  async close(): Promise<void> {
    this.client.removeAllListeners('close');
    this.client.on('error', () => undefined);
    try {
      if (this.client.status === 'ready') await this.client.quit();
      else this.client.disconnect(false);
    } catch {
      this.client.disconnect(false);
    }
  }
}
