// resolveLookup(): the one DNS question of the mail modules. A malformed `server` is refused up
// front as invalid_server (a 400, the caller's mistake), the way query() refuses it, instead of
// surfacing as every question failing (a 502 upstream_error).
import assert from 'node:assert/strict';
import { domainKeys } from '../../../../src/engine/mail/dkim';
import {
  ask,
  isVoidLookup,
  resolveLookup,
  type DnsLookup,
} from '../../../../src/engine/dns/lookup';
import { checkHost } from '../../../../src/engine/mail/spf-check';
import { senderPolicyRanges } from '../../../../src/engine/mail/spf';
import { LookupError } from '../../../../src/contract/errors';
import { code } from '../../../support/settled';

const BAD_SERVERS = ['300.1.1.1', '127.0.0.1:99999', '1:2:3', '[not-v6]:53', 'bad name!'];

describe('resolveLookup', () => {
  for (const server of BAD_SERVERS) {
    it(`refuses the server "${server}" before asking anything`, async () => {
      assert.throws(
        () => resolveLookup(server, {}),
        (err: unknown) => err instanceof LookupError && err.code === 'invalid_server',
      );
      assert.equal(await code(domainKeys({ host: 'mail.test', server })), 'invalid_server');
      assert.equal(await code(senderPolicyRanges({ host: 'mail.test', server })), 'invalid_server');
      assert.equal(
        await code(checkHost({ domain: 'mail.test', ip: '192.0.2.1', server }, {})),
        'invalid_server',
      );
    });
  }

  it('leaves an injected lookup and an empty server alone', () => {
    const injected = () => Promise.resolve({ records: [] });
    assert.equal(resolveLookup('300.1.1.1', { dnsLookup: injected }), injected);
    assert.equal(typeof resolveLookup('', {}), 'function');
    assert.equal(typeof resolveLookup('  ', {}), 'function');
    assert.equal(typeof resolveLookup('127.0.0.1:5353', {}), 'function');
  });
});

describe('ask(): an answer that holds only a CNAME chain', () => {
  const cname = (name: string, value: string) => ({ name, type: 'CNAME', value, ttl: 60 });
  const answer = (
    records: ReturnType<typeof cname>[],
    chain?: ReturnType<typeof cname>[],
    status: 'NOERROR' | 'NXDOMAIN' = 'NOERROR',
  ) =>
    (() =>
      Promise.resolve({ records, status, ...(chain ? { chain } : {}) })) as unknown as DnsLookup;

  it('is not void (section 4.6.4), and names each name of the chain once', async () => {
    const one = await ask(answer([cname('a.test', 'b.test.')]), 'a.test', 'A');
    assert.deepEqual(one, { kind: 'void', aliased: true, aliasNames: 2, nxdomain: false });
    assert.equal(isVoidLookup(one), false);
    // a loop stops where a name repeats: h3 -> h1 -> h2 -> h1
    const loop = await ask(
      answer(
        [],
        [cname('h3.test', 'h1.test'), cname('h1.test', 'h2.test'), cname('h2.test', 'h1.test')],
      ),
      'h3.test',
      'A',
    );
    assert.deepEqual(loop, { kind: 'void', aliased: true, aliasNames: 3, nxdomain: false });
    // a chain that ends at a name that does not exist: RCODE 3 with the chain in the answer
    const gone = await ask(answer([], [cname('a.test', 'gone.test')], 'NXDOMAIN'), 'a.test', 'A');
    assert.deepEqual(gone, { kind: 'void', aliased: true, aliasNames: 2, nxdomain: true });
    assert.equal(isVoidLookup(gone), false);
    assert.deepEqual(await ask(answer([]), 'a.test', 'A'), { kind: 'void' });
  });
});
