// The I/O that serve() (`hostlens serve` as the CLI runs it) writes to, kept in arrays, with
// the signals a test sends and the listening URL once it listens.
import { EventEmitter } from 'node:events';
import type { ServeIo } from '../../src/server/main';

export interface ServeHarness {
  io: ServeIo;
  out: string[];
  err: string[];
  signals: EventEmitter;
  listening: Promise<string>;
}

/** `graceMs`: how long open requests get after a SIGTERM. */
export function serveHarness(graceMs: number): ServeHarness {
  const out: string[] = [];
  const err: string[] = [];
  const signals = new EventEmitter();
  let onListening!: (url: string) => void;
  const listening = new Promise<string>((resolve) => (onListening = resolve));
  const io: ServeIo = {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    signals,
    graceMs,
    onListening,
  };
  return { io, out, err, signals, listening };
}
