import * as assert from 'node:assert/strict';
import { DnsCache } from '../../../../src/editor/hover/dnsCache';
import type { QueryResult } from '../../../../src/contract/shapes';

describe('hover DNS cache', () => {
  let now = 0;
  const clock = () => now;
  const answer: QueryResult = {
    records: [
      { type: 'A', value: '192.0.2.1', ttl: 120 },
      { type: 'A', value: '192.0.2.2', ttl: 60 },
      { type: 'MX', value: 'mx.example.test.', priority: 10 },
    ],
    status: 'NOERROR',
  };

  beforeEach(() => (now = 1_000_000));

  it('keeps an answer for the smallest TTL of its records', () => {
    const cache = new DnsCache(clock);
    cache.put('example.test', ['A'], undefined, answer);
    now += 59_000;
    assert.deepEqual(cache.get('Example.TEST', 'A', undefined)?.records.length, 2);
    now += 1_000;
    assert.equal(cache.get('example.test', 'A', undefined), undefined);
  });

  it('keeps records without a TTL for a minute and empty answers for 30 s', () => {
    const cache = new DnsCache(clock);
    cache.put('example.test', ['MX', 'AAAA'], undefined, answer);
    now += 31_000;
    assert.equal(cache.get('example.test', 'AAAA', undefined), undefined);
    assert.equal(cache.get('example.test', 'MX', undefined)?.records[0]?.value, 'mx.example.test.');
    now += 30_000;
    assert.equal(cache.get('example.test', 'MX', undefined), undefined);
  });

  it('keys answers by nameserver', () => {
    const cache = new DnsCache(clock);
    cache.put('example.test', ['A'], '127.0.0.1:5353', answer);
    assert.equal(cache.get('example.test', 'A', undefined), undefined);
    assert.ok(cache.get('example.test', 'A', '127.0.0.1:5353'));
  });

  it('remembers NXDOMAIN but never a failed type', () => {
    const cache = new DnsCache(clock);
    cache.put('gone.test', ['A'], undefined, { records: [], status: 'NXDOMAIN' });
    assert.equal(cache.get('gone.test', 'A', undefined)?.nxdomain, true);
    cache.put('slow.test', ['A', 'AAAA'], undefined, {
      records: [],
      status: 'NOERROR',
      errors: [{ type: 'A', code: 'upstream_timeout' }],
    });
    assert.equal(cache.get('slow.test', 'A', undefined), undefined);
    assert.ok(cache.get('slow.test', 'AAAA', undefined));
  });
});
