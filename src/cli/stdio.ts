// Where the command line writes. process.stdout and process.stderr are streams made on first
// use, and for a pipe they load node:net and the stream machinery: some 6 ms of a command that
// answers in tens, spent by every script that pipes `hostlens` (and by `hostlens --version`).
// A command's answer is a few writes, so on a pipe or a file they go straight to the file
// descriptor; a terminal keeps its stream (its width, and what a terminal needs of writes).
import { fstatSync, writeSync } from 'node:fs';

export type Fd = 1 | 2;

/** Whether fd is a terminal: a terminal is a character device, so nothing else is asked further. */
export function isTerminal(fd: Fd): boolean {
  try {
    if (!fstatSync(fd).isCharacterDevice()) return false;
  } catch {
    return false;
  }
  return stream(fd).isTTY === true;
}

/** The write of a file descriptor (fs.writeSync's shape), for tests to stand in for. */
export type WriteSync = (fd: number, buffer: Uint8Array, offset: number) => number;

/**
 * Writes all of `text` to fd, which is not a terminal. A descriptor left non-blocking by
 * whoever opened it (EAGAIN) gets the rest through its stream, which waits for room; a reader
 * that went away (EPIPE: `hostlens … | head -1`) ends the output quietly, as a command killed
 * by SIGPIPE would; any other failure is the stream's to report, as before.
 */
export function writeAll(fd: Fd, text: string, write: WriteSync = writeSync): void {
  const bytes = Buffer.from(text, 'utf8');
  let done = 0;
  try {
    while (done < bytes.length) done += write(fd, bytes, done);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EPIPE') return;
    streamWrite(fd, bytes.subarray(done));
  }
}

function stream(fd: Fd): NodeJS.WriteStream {
  return fd === 1 ? process.stdout : process.stderr;
}

/** The descriptors written through their streams, whose writes may still be under way. */
const streamed = new Set<Fd>();

function streamWrite(fd: Fd, data: string | Uint8Array): void {
  streamed.add(fd);
  stream(fd).write(data);
}

/**
 * Whether a write to stdout or stderr may still be under way: one handed to a stream (a
 * terminal's, or the rest after EAGAIN) that it holds unwritten. Writes to the descriptors
 * themselves are done when writeAll returns, so a process that made only those may end at once.
 */
export function outputPending(): boolean {
  for (const fd of streamed) if (stream(fd).writableLength > 0) return true;
  return false;
}

/** A writer for the process: terminals through their streams, anything else to the descriptor. */
export function processWriter(stdoutIsTTY: boolean, stderrIsTTY: boolean) {
  return (fd: Fd, text: string): void => {
    if (fd === 1 ? stdoutIsTTY : stderrIsTTY) streamWrite(fd, text);
    else writeAll(fd, text);
  };
}
