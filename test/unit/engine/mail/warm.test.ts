// The mail warm-up a server runs before it listens: a whole DKIM list and SPF tree through the
// real engine against a loopback responder of its own; it must get there, not time out.
import assert from 'node:assert/strict';
import { runMailWarmUp, warmUpMail } from '../../../../src/engine/mail/warm';

describe('engine/mail warm-up', () => {
  it('reads its own DKIM key and SPF tree back from its loopback responder', async () => {
    const { keys, spf } = await runMailWarmUp();
    assert.deepEqual(
      keys.domain_keys.map((k) => k.key_bits),
      [1024],
    );
    assert.deepEqual(
      spf.includes.map((i) => i.domain),
      ['spf.warm.invalid'],
    );
  });

  it('runs once per process and never rejects', async () => {
    const first = warmUpMail();
    assert.equal(warmUpMail(), first);
    assert.equal(await first, undefined);
  });
});
