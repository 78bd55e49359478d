// The requests a server is working on, so that shutdown can wait for them and, once the grace
// period is over, answer each one still open 503 `overloaded` (instead of a reset) and cancel
// its work.
import type { ServerResponse } from 'node:http';
import { LookupError } from '../contract/errors';
import { sendProblem } from './respond';

interface Entry {
  controller: AbortController;
  res: ServerResponse;
}

export class InFlight {
  private readonly entries = new Set<Entry>();
  private onDrained: (() => void) | undefined;

  get size(): number {
    return this.entries.size;
  }

  /** Tracks one request; the function ends the tracking. */
  add(controller: AbortController, res: ServerResponse): () => void {
    const entry = { controller, res };
    this.entries.add(entry);
    return () => {
      this.entries.delete(entry);
      if (this.entries.size === 0) this.onDrained?.();
    };
  }

  /** Resolves when nothing is in flight or after `ms`, whichever comes first. */
  async drained(ms: number): Promise<void> {
    // Answers written from now on tell the client not to send more on their connection.
    for (const { res } of this.entries) {
      if (!res.headersSent) res.setHeader('connection', 'close');
    }
    if (this.entries.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      this.onDrained = resolve;
      timer = setTimeout(resolve, ms);
    });
    clearTimeout(timer);
    this.onDrained = undefined;
  }

  /**
   * Answers every request still open 503 and cancels its work. Resolves with how many were
   * cut once their answers are written (or after `flushMs`).
   */
  async cut(flushMs = 1_000): Promise<number> {
    const open = [...this.entries];
    const written = open.map((entry) => {
      const done = new Promise<void>((resolve) => {
        if (entry.res.writableFinished || entry.res.destroyed) resolve();
        else entry.res.once('close', () => resolve());
      });
      sendProblem(
        entry.res,
        new LookupError('overloaded', 'The server is shutting down; retry on another instance', {
          retryAfter: 1,
        }),
        { headers: { connection: 'close' } },
      );
      entry.controller.abort();
      return done;
    });
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(written),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, flushMs))),
    ]);
    clearTimeout(timer);
    return open.length;
  }
}
