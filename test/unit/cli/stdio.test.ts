// The command line writes straight to stdout and stderr when they are pipes or files (no
// stream, no node:net loaded): every byte gets there, a non-blocking descriptor's rest goes
// through the stream, and a reader that went away ends the output quietly.
import * as assert from 'node:assert/strict';
import { outputPending, writeAll, type WriteSync } from '../../../src/cli/stdio';

function errno(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(code), { code });
}

/** A descriptor that takes at most `room` bytes a call, then fails with `failure`. */
function fakeFd(room: number[], failure?: string) {
  const got: number[] = [];
  const write: WriteSync = (_fd, buffer, offset) => {
    const take = room.shift();
    if (take === undefined) throw errno(failure ?? 'EIO');
    const part = buffer.subarray(offset, offset + take);
    got.push(...part);
    return part.length;
  };
  return { write, text: () => Buffer.from(got).toString('utf8') };
}

describe('hostlens stdio', () => {
  it('writes everything, over partial writes, UTF-8 whole', () => {
    const fd = fakeFd([3, 1, 100]);
    writeAll(1, 'zone ✓ checked', fd.write);
    assert.equal(fd.text(), 'zone ✓ checked');
  });

  it('drops the rest quietly when the reader went away (EPIPE)', () => {
    const fd = fakeFd([2], 'EPIPE');
    assert.doesNotThrow(() => writeAll(1, 'hello', fd.write));
    assert.equal(fd.text(), 'he');
  });

  it('hands the rest to the stream when the descriptor has no room now (EAGAIN)', () => {
    const fd = fakeFd([2], 'EAGAIN');
    const written: string[] = [];
    // eslint-disable-next-line @typescript-eslint/unbound-method
    const original = process.stderr.write;
    process.stderr.write = (chunk: string | Uint8Array) => (written.push(String(chunk)), true);
    try {
      writeAll(2, 'hello', fd.write);
    } finally {
      process.stderr.write = original;
    }
    assert.equal(fd.text() + written.join(''), 'hello');
  });

  it('says output is pending while a stream holds unwritten bytes, and only then', () => {
    const fd = fakeFd([3]);
    writeAll(2, 'abc', fd.write);
    // written to the descriptor itself: done when writeAll returns
    assert.equal(outputPending(), false);
    const stuck = fakeFd([1], 'EAGAIN');
    // eslint-disable-next-line @typescript-eslint/unbound-method
    const original = process.stderr.write;
    process.stderr.write = () => true;
    Object.defineProperty(process.stderr, 'writableLength', { value: 2, configurable: true });
    try {
      writeAll(2, 'xyz', stuck.write);
      assert.equal(outputPending(), true);
    } finally {
      process.stderr.write = original;
      delete (process.stderr as { writableLength?: number }).writableLength;
    }
    // the stream has written what it held
    assert.equal(outputPending(), false);
  });
});
