import assert from 'node:assert/strict';
import { rawQuery } from '../../../../src/engine/dns/raw-query';
import { LookupError } from '../../../../src/contract/errors';
import { startDnsServer, type DnsFixture } from '../../../support/dns-server';

describe('engine/dns/raw-query', () => {
  let dns: DnsFixture;
  const opts = { timeoutMs: 150, tries: 1 };

  before(async () => {
    dns = await startDnsServer({
      records: [
        { name: 'foo:bar/baz.example.test', type: 'TXT', data: ['v=spf1 ', '-all'] },
        { name: 'odd name.example.test', type: 'A', data: '192.0.2.7' },
        {
          name: 'odd name.example.test',
          type: 'MX',
          data: { preference: 5, exchange: 'mx.example.test' },
        },
      ],
      behaviour: (q) =>
        q.name.startsWith('sf')
          ? 'servfail'
          : q.name.startsWith('rf')
            ? 'refused'
            : q.name.startsWith('to')
              ? 'timeout'
              : undefined,
    });
  });
  after(() => dns.close());

  it('asks names with any printable octet and reads the answers', async () => {
    const t = await rawQuery('foo:bar/baz.example.test', 'TXT', dns.address, opts);
    assert.deepEqual(
      t.records.map((r) => [r.value, r.parts]),
      [['v=spf1 -all', ['v=spf1 ', '-all']]],
    );
    const a = await rawQuery('odd name.example.test', 'A', dns.address, opts);
    assert.equal(a.records[0].value, '192.0.2.7');
    const mx = await rawQuery('odd name.example.test', 'MX', dns.address, opts);
    assert.deepEqual([mx.records[0].value, mx.records[0].priority], ['mx.example.test.', 5]);
    const none = await rawQuery('odd%.example.test', 'A', dns.address, opts);
    assert.equal(none.status, 'NXDOMAIN');
  });

  it('reports SERVFAIL, REFUSED, silence and cancellation', async () => {
    const sf = await rawQuery('sf:x.example.test', 'TXT', dns.address, opts);
    assert.deepEqual(sf.errors, [{ type: 'TXT', code: 'servfail' }]);
    const rf = await rawQuery('rf:x.example.test', 'TXT', dns.address, opts);
    assert.deepEqual(rf.errors, [{ type: 'TXT', code: 'refused' }]);
    await assert.rejects(
      rawQuery('to:x.example.test', 'TXT', dns.address, { timeoutMs: 50, tries: 2 }),
      (e: LookupError) => e.code === 'upstream_timeout',
    );
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 20);
    await assert.rejects(
      rawQuery('to:x.example.test', 'TXT', dns.address, { ...opts, signal: ac.signal }),
      (e: LookupError) => e.code === 'cancelled',
    );
    await assert.rejects(
      rawQuery('x.example.test', 'TXT', 'not a server!', opts),
      (e: LookupError) => e.code === 'invalid_server',
    );
  });
});
