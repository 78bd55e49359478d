// How reading a file shares the thread with the checks it starts. Reading goes in slices, and
// between two slices the event loop gets a turn: a new connection's request is written, an
// answer read and its lane's next link sent.
//
// While every link found is under way, a slice lasts as long as the turn before it (at least
// READ_SLICE_MS): reading keeps about half the thread when answers pour in, and lanes do not
// wait long for their next URLs. Once found links wait for a lane, reading is ahead of the
// network and a slice lasts READ_SLICE_MS: the lanes just started (connections being set up,
// first requests to write) are not held up by lines that can start none. A check's first round
// of requests then leaves after the lines that start it, not after the rest of the file.
//
// The turn (networkTurn) ends after the writes the turn's answers asked for: undici sends a
// request on a kept-alive connection from an immediate queued as the answer before it is read
// (it lets the poll phase show a close or stray bytes first), and a reader that resumed on an
// immediate of its own, queued a turn earlier, would go first: each lane's next request would
// wait a slice of reading.

/**
 * A turn of the event loop for the network, ending after the immediates its poll phase queued:
 * the first hop is queued before them and only queues the second, which comes after them.
 */
export function networkTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}

/** The least a slice lasts, and the most once found links wait for a lane. */
export const READ_SLICE_MS = 2;

/** One clock for every reader (a closure each would make over() see a new callee each file). */
const monotonic = (): number => performance.now();

export class ReadSlices {
  private start: number;
  private end = 0;
  /** how long a slice lasts while no link found waits (the last turn's length) */
  private length = READ_SLICE_MS;

  constructor(private readonly clock: () => number = monotonic) {
    this.start = clock();
  }

  /** Whether the slice is over, `waiting` when links found wait for a lane. */
  over(waiting: boolean): boolean {
    const now = this.clock();
    if (now - this.start < (waiting ? READ_SLICE_MS : this.length)) return false;
    this.end = now;
    return true;
  }

  /** Reading goes on after a turn of the event loop: the next slice lasts as long as it. */
  resumed(): void {
    this.start = this.clock();
    this.length = Math.max(READ_SLICE_MS, this.start - this.end);
  }

  /** Reading goes on without a turn (no check under way to give one to). */
  restart(): void {
    this.start = this.end;
  }
}
