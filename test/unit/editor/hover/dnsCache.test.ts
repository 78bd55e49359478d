import * as assert from 'node:assert/strict';
import { DnsCache, type AnswerSource } from '../../../../src/editor/hover/dnsCache';
import type { QueryResult } from '../../../../src/contract/shapes';

describe('hover DNS cache', () => {
  const plain: AnswerSource = { server: undefined, dnssec: false };
  const loopback: AnswerSource = { server: '127.0.0.1:5353', dnssec: false };
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
    cache.put('example.test', ['A'], plain, answer);
    now += 59_000;
    assert.deepEqual(cache.get('Example.TEST', 'A', plain)?.records.length, 2);
    now += 1_000;
    assert.equal(cache.get('example.test', 'A', plain), undefined);
  });

  it('keeps records without a TTL for a minute and empty answers for 30 s', () => {
    const cache = new DnsCache(clock);
    cache.put('example.test', ['MX', 'AAAA'], plain, answer);
    now += 31_000;
    assert.equal(cache.get('example.test', 'AAAA', plain), undefined);
    assert.equal(cache.get('example.test', 'MX', plain)?.records[0]?.value, 'mx.example.test.');
    now += 30_000;
    assert.equal(cache.get('example.test', 'MX', plain), undefined);
  });

  it('keys answers by nameserver', () => {
    const cache = new DnsCache(clock);
    cache.put('example.test', ['A'], loopback, answer);
    assert.equal(cache.get('example.test', 'A', plain), undefined);
    assert.ok(cache.get('example.test', 'A', loopback));
  });

  it('remembers NXDOMAIN but never a failed type', () => {
    const cache = new DnsCache(clock);
    cache.put('gone.test', ['A'], plain, { records: [], status: 'NXDOMAIN' });
    assert.equal(cache.get('gone.test', 'A', plain)?.nxdomain, true);
    cache.put('slow.test', ['A', 'AAAA'], plain, {
      records: [],
      status: 'NOERROR',
      errors: [{ type: 'A', code: 'upstream_timeout' }],
    });
    assert.equal(cache.get('slow.test', 'A', plain), undefined);
    assert.ok(cache.get('slow.test', 'AAAA', plain));
  });

  it('keeps validated and plain answers apart, each with its own verdict', () => {
    const cache = new DnsCache(clock);
    const validated: AnswerSource = { server: undefined, dnssec: true };
    const verdict = {
      status: 'bogus' as const,
      reason: 'example.test. answers no DNSKEY',
      chain: [],
    };
    cache.put('example.test', ['A'], plain, answer);
    assert.equal(
      cache.get('example.test', 'A', validated),
      undefined,
      'a plain answer is no verdict',
    );
    cache.put('example.test', ['A', 'MX'], validated, { ...answer, dnssec: verdict });
    assert.deepEqual(cache.get('example.test', 'MX', validated)?.dnssec, verdict);
    assert.equal(cache.get('example.test', 'A', validated)?.records.length, 2);
    assert.equal(cache.get('example.test', 'A', plain)?.dnssec, undefined);
    assert.equal(cache.get('example.test', 'MX', plain), undefined);
  });
});
