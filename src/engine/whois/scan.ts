// One pass over a reply for both of its readers: the reader's walk (reader.ts) and the
// classifier (reply.ts). Each read the reply's characters from a typed copy of its UTF-16 code
// units and cut it at its newlines; each made the copy and found the newlines itself, so a reply
// without data, which both read whole, was copied and cut twice. Now it is done once here.
//
// The copy of a reply of up to SHARED_UNITS characters is in one buffer, reused by every reply:
// reading is synchronous, and a scan says whether the buffer still holds its reply (another
// reply scanned since, or the classifier's own window copied into it, replaces it).
import { codeUnits as codeUnitsOf, writeCodeUnits as writeCodeUnitsOf } from './chars';

// Bound once: run from sources transpiled file by file (tsx, mocha), an imported name is read
// through an export getter at every use (see reader.ts).
const codeUnits = codeUnitsOf;
const writeCodeUnits = writeCodeUnitsOf;

/** The longest reply whose code units go into the shared buffer; a longer one gets its own. */
export const SHARED_UNITS = 64 * 1024;

/**
 * Zeros after a reply's last code unit: the walk peeks a few characters past a line's end (up
 * to six), which at the reply's end charCodeAt would answer NaN; 0 fails the same tests.
 */
export const PAST_END = 8;

const sharedBuffer = Buffer.allocUnsafeSlow(2 * (SHARED_UNITS + PAST_END));

/** The shared copy, read as code units, and the same memory read two units at a time. */
export const SHARED_CODES = new Uint16Array(
  sharedBuffer.buffer,
  sharedBuffer.byteOffset,
  SHARED_UNITS + PAST_END,
);
export const SHARED_PAIRS = new Int32Array(
  sharedBuffer.buffer,
  sharedBuffer.byteOffset,
  (SHARED_UNITS + PAST_END) >> 1,
);

/** The buffer behind SHARED_CODES, for a writer of a window of its own (see claimShared). */
export const SHARED_BUFFER = sharedBuffer;

/**
 * Bumped by every scan and whenever the shared buffer is written: a scan's copy and line ends
 * (both kept between replies) are its own while its `generation` is the current one.
 */
let generation = 0;

/** Marks the shared buffer as rewritten by its caller: every scan that held it lets go. */
export function claimShared(): void {
  generation++;
}

/**
 * The reply the shared buffer holds whole (holdShared, scanReply), while `heldGeneration` is
 * the current generation.
 */
let held: string | undefined;
let heldGeneration = -1;

/**
 * Copies a reply of up to SHARED_UNITS characters whole into the shared buffer, followed by
 * PAST_END zeros, for a reader of its first line (reply.ts): scanReply of the same reply, next,
 * finds it there and does not copy it again. A copy costs a call into the runtime, about 50 ns,
 * and a few more for each KB: copying the first line alone, then the reply, cost one more call
 * for every reply read past its first line, a tenth of parsing most of them.
 */
export function holdShared(text: string): void {
  const len = text.length;
  writeCodeUnits(sharedBuffer, text, len);
  zeroPast(len);
  held = text;
  heldGeneration = ++generation;
}

/** Zeros the PAST_END code units after the first `len` of the shared buffer. */
function zeroPast(len: number): void {
  for (let i = len; i < len + PAST_END; i++) SHARED_CODES[i] = 0;
}

/** Line ends kept between replies, up to this many; a reply with more gets its own array. */
const KEPT_LINES = 1 << 16;
let keptLineEnds: Int32Array = new Int32Array(256);

export interface Scan {
  readonly text: string;
  /** text's code units followed by PAST_END zeros (SHARED_CODES when `shared`) */
  readonly units: Uint16Array;
  /** whether `units` is the shared buffer */
  readonly shared: boolean;
  readonly generation: number;
  /** where each line ends: the index of its '\n', and text.length for the last line */
  readonly lineEnds: Int32Array;
  readonly lineCount: number;
}

/**
 * Copies `text` into code units and finds its line ends. The line ends are found with indexOf,
 * which the engine runs natively over the string, faster than a loop over the copy.
 */
export function scanReply(text: string): Scan {
  const len = text.length;
  let units: Uint16Array;
  const shared = len <= SHARED_UNITS;
  if (shared) {
    // `held !== text` compares references first, and the contents of two replies of one length
    // only up to where they differ
    if (held !== text || heldGeneration !== generation) {
      writeCodeUnits(sharedBuffer, text, len);
      zeroPast(len);
    }
    units = SHARED_CODES;
  } else {
    units = codeUnits(text, PAST_END);
  }
  let ends = keptLineEnds;
  let count = 0;
  let start = 0;
  for (;;) {
    let nl = text.indexOf('\n', start);
    if (nl < 0) nl = len;
    if (count === ends.length) ends = grown(ends);
    ends[count++] = nl;
    if (nl === len) break;
    start = nl + 1;
  }
  if (ends.length <= KEPT_LINES) keptLineEnds = ends;
  generation++;
  held = shared ? text : undefined;
  heldGeneration = generation;
  return { text, units, shared, generation, lineEnds: ends, lineCount: count };
}

function grown(ends: Int32Array): Int32Array {
  const more = new Int32Array(ends.length * 2);
  more.set(ends);
  return more;
}

/** Whether the scan still holds its reply: nothing scanned or written into the buffer since. */
export function isCurrent(scan: Scan): boolean {
  return scan.generation === generation;
}
