// streamLines: the server's log writer holds the lines of one turn of the event loop and writes
// them at once (a cached answer no longer pays a system call for its access line), losing none
// and keeping their order; a reader that goes away stops the writes without an exception.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { Writable } from 'node:stream';
import { streamLines } from '../../../src/server/log';

/** A stream that records each write it is given. */
function recorder(fail?: Error): { stream: Writable; writes: string[] } {
  const writes: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      writes.push(chunk.toString('utf8'));
      done(fail);
    },
  });
  return { stream, writes };
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('streamLines (the log writer)', () => {
  it('writes the lines of one turn in one write, in order, each ended by a newline', async () => {
    const { stream, writes } = recorder();
    const write = streamLines(stream);
    write('one');
    write('two');
    write('three');
    assert.deepEqual(writes, [], 'nothing is written before the turn ends');
    await turn();
    assert.deepEqual(writes, ['one\ntwo\nthree\n']);
    write('four');
    await turn();
    assert.deepEqual(writes, ['one\ntwo\nthree\n', 'four\n']);
  });

  it('stops writing once the stream fails (EPIPE), without throwing', async () => {
    const epipe = Object.assign(new Error('write EPIPE'), { code: 'EPIPE' });
    const { stream, writes } = recorder(epipe);
    const write = streamLines(stream);
    write('first');
    await turn();
    await turn();
    write('second');
    await turn();
    assert.deepEqual(writes, ['first\n'], 'after the error nothing more is written');
  });
});

describe('streamLines at exit', () => {
  it('writes the lines still held when the process exits', () => {
    const log = require.resolve('../../../src/server/log');
    const program = `const { streamLines } = require(${JSON.stringify(log)});
      const write = streamLines(process.stdout);
      write('held until exit');
      process.exit(0);`;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '-e', program], {
      encoding: 'utf8',
    });
    assert.equal(child.stdout, 'held until exit\n', child.stderr);
  });
});
