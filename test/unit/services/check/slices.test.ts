// How long reading goes on between two turns of the event loop, on a clock the test moves.
import assert from 'node:assert/strict';
import { createServer, connect, type AddressInfo, type Socket } from 'node:net';
import { networkTurn, READ_SLICE_MS, ReadSlices } from '../../../../src/services/check/slices';

function clocked(): { slices: ReadSlices; at: (ms: number) => void } {
  let now = 0;
  return { slices: new ReadSlices(() => now), at: (ms) => (now = ms) };
}

describe('link check: slices of reading', function () {
  it('lasts READ_SLICE_MS at first', function () {
    const { slices, at } = clocked();
    at(READ_SLICE_MS - 0.5);
    assert.equal(slices.over(false), false);
    at(READ_SLICE_MS);
    assert.equal(slices.over(false), true);
  });

  it('lasts as long as the turn before it while every link found is under way', function () {
    const { slices, at } = clocked();
    at(2);
    assert.equal(slices.over(false), true);
    at(12); // a turn of 10 ms
    slices.resumed();
    at(21);
    assert.equal(slices.over(false), false);
    at(22);
    assert.equal(slices.over(false), true);
  });

  it('lasts READ_SLICE_MS after a long turn once found links wait for a lane', function () {
    const { slices, at } = clocked();
    at(2);
    assert.equal(slices.over(false), true);
    at(42); // connections set up and first requests written: 40 ms
    slices.resumed();
    at(43);
    assert.equal(slices.over(true), false);
    at(42 + READ_SLICE_MS);
    assert.equal(slices.over(true), true);
  });

  it('ends a long slice as soon as a link found waits for a lane', function () {
    const { slices, at } = clocked();
    at(2);
    slices.over(false);
    at(32);
    slices.resumed(); // the next slice may last 30 ms
    at(35);
    assert.equal(slices.over(false), false, 'every link under way: reading goes on');
    assert.equal(slices.over(true), true, 'a link waits: the network comes first');
  });

  it('lasts at least READ_SLICE_MS after a short turn', function () {
    const { slices, at } = clocked();
    at(2);
    slices.over(false);
    at(2.5); // a turn of 0.5 ms
    slices.resumed();
    at(2.5 + READ_SLICE_MS - 0.5);
    assert.equal(slices.over(false), false);
    at(2.5 + READ_SLICE_MS);
    assert.equal(slices.over(false), true);
  });

  it('goes on from where it ended when no turn was taken', function () {
    const { slices, at } = clocked();
    at(2);
    slices.over(false);
    slices.restart();
    at(3);
    assert.equal(slices.over(false), false);
    at(4);
    assert.equal(slices.over(false), true);
  });
});

describe('link check: the network’s turn between slices of reading', function () {
  it('ends after the requests that the turn’s answers queued to send', async function () {
    // An answer read in the turn's poll phase queues its connection's next request on an
    // immediate, as undici does on a kept-alive connection: reading resumes after it is sent.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const accepted = new Promise<Socket>((resolve) => server.once('connection', resolve));
    const client = connect((server.address() as AddressInfo).port, '127.0.0.1');
    const peer = await accepted;
    try {
      const order: string[] = [];
      client.on('data', () => {
        order.push('answer read');
        setImmediate(() => order.push('next request sent'));
      });
      await new Promise<void>((resolve) =>
        setImmediate(() => {
          // a slice of reading ends: the answer is in the kernel by the next poll phase
          peer.write('HTTP/1.1 200 OK\r\n\r\n');
          void networkTurn().then(() => {
            order.push('reading resumes');
            resolve();
          });
        }),
      );
      assert.deepEqual(order, ['answer read', 'next request sent', 'reading resumes']);
    } finally {
      client.destroy();
      peer.destroy();
      server.close();
    }
  });
});
