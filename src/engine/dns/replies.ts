// What a connection to a nameserver owes the questions sent on it: the reply carrying each
// one's ID. UDP sockets (datagram.ts) and TCP/TLS connections (stream.ts) carry many questions
// at once and hand each reply to the question whose ID it bears.
import { randomFillSync } from 'node:crypto';
import type { ExchangeError } from './errors';

interface Waiter {
  resolve(message: Buffer): void;
  reject(err: Error): void;
  /** keeps waiting after a reply: a zone transfer's answer is many messages with one ID */
  many?: boolean;
}

/** A connection that carries many questions at once, told apart by ID. */
export interface Channel {
  readonly closed: boolean;
  /** Sends one query; resolves with the reply whose ID matches. */
  ask(id: number, query: Buffer): Promise<Buffer>;
  /** Stops waiting for one ID (its try timed out or was cancelled). */
  forget(id: number): void;
  /** Whether a question with this ID is waiting. */
  waitsFor(id: number): boolean;
  close(): void;
}

export class PendingReplies {
  private readonly waiters = new Map<number, Waiter>();

  waitsFor(id: number): boolean {
    return this.waiters.has(id);
  }

  wait(id: number): Promise<Buffer> {
    return new Promise<Buffer>((resolve, reject) => this.waiters.set(id, { resolve, reject }));
  }

  /**
   * Hands every message with `id` to `onMessage` until it returns true (then resolves) or
   * throws (then rejects with what it threw).
   */
  waitMany(id: number, onMessage: (message: Buffer) => boolean): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        many: true,
        resolve: (message) => {
          let done: boolean;
          try {
            done = onMessage(message);
          } catch (err) {
            this.waiters.delete(id);
            reject(err instanceof Error ? err : new Error(String(err)));
            return;
          }
          if (!done) return;
          this.waiters.delete(id);
          resolve();
        },
        reject,
      };
      this.waiters.set(id, waiter);
    });
  }

  /**
   * Hands a message (at least two octets) to the question waiting for its ID. A message
   * nobody waits for (a late answer to an earlier try, or a forgery) is dropped.
   */
  deliver(message: Buffer): void {
    const id = message.readUInt16BE(0);
    const waiter = this.waiters.get(id);
    if (waiter === undefined) return;
    if (waiter.many !== true) this.waiters.delete(id);
    waiter.resolve(message);
  }

  forget(id: number): void {
    this.waiters.delete(id);
  }

  failAll(err: ExchangeError): void {
    for (const waiter of this.waiters.values()) waiter.reject(err);
    this.waiters.clear();
  }
}

// Query IDs are the client's defence against forged answers (RFC 5452 section 4.3), so they
// come from the CSPRNG; drawn a batch at a time, as one call per question costs more than the
// rest of sending it.
const idPool = Buffer.alloc(512);
let idOffset = idPool.length;

/** A random ID no question on `channel` is waiting with. */
export function unusedId(channel: Pick<Channel, 'waitsFor'>): number {
  for (;;) {
    if (idOffset >= idPool.length) {
      randomFillSync(idPool);
      idOffset = 0;
    }
    const id = idPool.readUInt16BE(idOffset);
    idOffset += 2;
    if (!channel.waitsFor(id)) return id;
  }
}
