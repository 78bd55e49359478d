// Open requests under two bounds: a global one (this machine's sockets) and one per host (the
// site's patience). A host that answered 429 or 503 with Retry-After is paused until then, its
// waiting checks kept in order. Hosts take turns, so one crowded host never starves the rest.
import { LookupError } from '../../contract/errors';

interface HostState {
  active: number;
  queue: Array<() => void>;
  /** when the host's pause ends (ms since the epoch); 0 when it is not paused */
  pausedUntil: number;
  timer?: NodeJS.Timeout;
}

export class HostLimiter {
  private readonly hosts = new Map<string, HostState>();
  /** hosts with checks waiting, in turn order */
  private readonly waiting = new Set<string>();
  private active = 0;

  constructor(
    readonly perHost: number,
    readonly global: number,
  ) {
    if (!(perHost >= 1) || !(global >= 1)) {
      throw new LookupError('invalid_argument', 'limits on open requests must be at least 1');
    }
  }

  /** Runs `task` once the host and the machine have room; releases the slot however it ends. */
  async run<T>(host: string, task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const wait = this.enter(host, signal);
    if (wait) await wait;
    try {
      return await task();
    } finally {
      this.leave(host);
    }
  }

  /**
   * Takes a slot of `host`: at once (undefined), or once the host and the machine have room
   * (the promise; rejected when `signal` ends the wait). The slot is given back by leave().
   * run() without its task closure and async call: the link check takes thousands.
   */
  enter(host: string, signal?: AbortSignal): Promise<void> | undefined {
    return this.tryAcquire(host, signal) ? undefined : this.acquire(host, signal);
  }

  /** Gives back a slot enter() took. */
  leave(host: string): void {
    this.release(host);
  }

  /** No new request to `host` starts before `untilMs` (requests already open go on). */
  pause(host: string, untilMs: number): void {
    const state = this.state(host);
    if (untilMs <= state.pausedUntil) return;
    state.pausedUntil = untilMs;
    clearTimeout(state.timer);
    const wake = () => {
      const left = state.pausedUntil - Date.now();
      // A timer may fire a little before the wall clock says: wait out the rest.
      if (left > 0) state.timer = setTimeout(wake, left);
      else {
        state.pausedUntil = 0;
        this.pumpHost(host);
      }
    };
    state.timer = setTimeout(wake, Math.max(0, untilMs - Date.now()));
  }

  private state(host: string): HostState {
    let state = this.hosts.get(host);
    if (!state) {
      state = { active: 0, queue: [], pausedUntil: 0 };
      this.hosts.set(host, state);
    }
    return state;
  }

  /**
   * Takes a slot at once when the host has room, nothing of its own waiting and no pause, and
   * the machine has room (then no other host waits for the machine either): the common case,
   * without a promise and an abort listener.
   */
  private tryAcquire(host: string, signal?: AbortSignal): boolean {
    if (signal?.aborted || this.active >= this.global) return false;
    const state = this.state(host);
    if (state.queue.length > 0 || state.active >= this.perHost) return false;
    if (paused(state)) return false;
    state.active++;
    this.active++;
    return true;
  }

  private acquire(host: string, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const state = this.state(host);
      let granted = false;
      const grant = () => {
        granted = true;
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        if (granted) return;
        const at = state.queue.indexOf(grant);
        if (at >= 0) state.queue.splice(at, 1);
        if (state.queue.length === 0) this.waiting.delete(host);
        reject(new LookupError('cancelled', 'The check was cancelled'));
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      state.queue.push(grant);
      this.waiting.add(host);
      this.pumpHost(host);
    });
  }

  private release(host: string): void {
    const state = this.hosts.get(host)!;
    const machineWasFull = this.active >= this.global;
    state.active--;
    this.active--;
    // With the machine's bound met, any waiting host may take the slot (in turn); below it,
    // only this host's own slot opened: every other waiting host is full or paused.
    if (machineWasFull) this.pump();
    else if (state.queue.length > 0) this.pumpHost(host);
  }

  /** Starts what `host` has room for, while the machine has room. */
  private pumpHost(host: string): void {
    const state = this.hosts.get(host);
    if (!state) return;
    if (paused(state)) return; // its timer calls again
    while (state.queue.length > 0 && state.active < this.perHost && this.active < this.global) {
      const next = state.queue.shift()!;
      state.active++;
      this.active++;
      if (state.queue.length === 0) this.waiting.delete(host);
      next();
    }
  }

  private pump(): void {
    const now = Date.now();
    let progressed = true;
    while (this.active < this.global && progressed) {
      progressed = false;
      for (const host of this.waiting) {
        if (this.active >= this.global) break;
        const state = this.hosts.get(host)!;
        if (state.active >= this.perHost || state.pausedUntil > now) continue;
        const next = state.queue.shift()!;
        state.active++;
        this.active++;
        // Its turn is over: to the back of the line (or out of it).
        this.waiting.delete(host);
        if (state.queue.length > 0) this.waiting.add(host);
        next();
        progressed = true;
      }
    }
  }

  /** Stops the pause timers (a finished or cancelled check). */
  close(): void {
    for (const state of this.hosts.values()) clearTimeout(state.timer);
  }
}

/** Whether a Retry-After pause holds the host (the clock is read only while one is set). */
function paused(state: HostState): boolean {
  return state.pausedUntil !== 0 && state.pausedUntil > Date.now();
}
