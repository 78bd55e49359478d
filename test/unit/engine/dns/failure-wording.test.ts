// A look-up that failed everywhere says where and how long it waited, once: "127.0.0.1:5353
// did not answer in 0.6 s", not "The nameserver did not answer in time (The nameserver did
// not answer in time)".
import * as assert from 'node:assert/strict';
import { createSocket, type Socket } from 'node:dgram';
import { LookupError } from '../../../../src/contract/errors';
import { query } from '../../../../src/engine/dns/query';

describe('engine/dns failure wording', () => {
  let silent: Socket;
  let server: string;

  before(async () => {
    // Takes every question and answers none.
    silent = createSocket('udp4');
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
    server = `127.0.0.1:${silent.address().port}`;
  });
  after(() => silent.close());

  it('names the nameserver and the time waited for it', async () => {
    const err = await query(
      { host: 'example.test', types: ['A', 'MX'], server },
      { timeoutMs: 300, tries: 2 },
    ).then(
      () => assert.fail('answered'),
      (e: unknown) => e as LookupError,
    );
    assert.equal(err.code, 'upstream_timeout');
    assert.equal(err.detail, `${server} did not answer in 0.6 s`);
  });
});
