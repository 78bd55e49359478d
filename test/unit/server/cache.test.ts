import assert from 'node:assert/strict';
import { findOperation, type Operation } from '../../../src/contract/operations';
import { cacheKey, cacheLifetimeMs, MAX_CACHE_LIFE_MS } from '../../../src/server/cache';
import { parseParams } from '../../../src/server/routes';

const op = (name: string): Operation => {
  const found = findOperation(name);
  assert.ok(found, name);
  return found;
};
const key = (name: string, query: string) =>
  cacheKey(op(name), parseParams(op(name), new URLSearchParams(query)));

describe('response cache keys and lifetimes', () => {
  it('keys the normalised request: parameter order, encoding and type case do not matter', () => {
    assert.equal(
      key('query', 'host=x.test&types=a&types=Mx&server=192.0.2.53'),
      key('query', 'server=192.0.2.53&types=A&host=x.test&types=MX'),
    );
    assert.equal(
      key('unfurl', 'url=site.test%2Fa&language=de'),
      key('unfurl', 'language=de&url=site.test/a'),
    );
  });

  it('keeps apart what gives different answers', () => {
    const distinct = [
      key('query', 'host=x.test&types=A&types=MX'),
      key('query', 'host=x.test&types=MX&types=A'), // records come in the requested order
      key('query', 'host=x.test&types=A'),
      key('query', 'host=y.test&types=A'),
      key('query', 'host=x.test&types=A&server=192.0.2.53'),
      key('domain_keys', 'host=x.test'),
      key('unfurl', 'url=site.test'),
      key('unfurl', 'url=site.test&language=fr'),
      key('icons', 'url=site.test'),
      // A value holding the separators cannot pose as two parameters.
      key('unfurl', 'url=a%26language%3Dfr'),
    ];
    assert.equal(new Set(distinct).size, distinct.length);
  });

  it('lives for the shortest record TTL, and not at all when freshness is unknown', () => {
    const query = op('query');
    const records = (ttls: Array<number | undefined>) =>
      ttls.map((ttl) => ({ type: 'A', value: '192.0.2.1', ...(ttl === undefined ? {} : { ttl }) }));
    assert.equal(cacheLifetimeMs(query, { records: records([300, 60, 3600]) }, 5000), 60_000);
    assert.equal(cacheLifetimeMs(query, { records: records([300, undefined]) }, 5000), 0);
    assert.equal(cacheLifetimeMs(query, { records: records([0]) }, 5000), 0);
    assert.equal(cacheLifetimeMs(query, { records: [], status: 'NXDOMAIN' }, 5000), 0);
    assert.equal(
      cacheLifetimeMs(
        query,
        { records: records([60]), errors: [{ type: 'MX', code: 'servfail' }] },
        5000,
      ),
      0,
    );
    assert.equal(cacheLifetimeMs(op('domain_keys'), { domain_keys: [] }, 5000), 0);
    assert.equal(cacheLifetimeMs(op('sender_policy_ranges'), {}, 5000), 0);
    assert.equal(cacheLifetimeMs(op('whois'), {}, 5000), 5000);
    assert.equal(cacheLifetimeMs(op('unfurl'), {}, 5000), 5000);
  });
});

describe('response cache: TTL bounds', () => {
  const query = findOperation('query') as Operation;
  const records = (ttl: number) => ({ records: [{ type: 'A', value: '192.0.2.1', ttl }] });

  it('reads a TTL with the top bit set as zero (RFC 2181 section 8): not cached', () => {
    assert.equal(cacheLifetimeMs(query, records(4294967295), 5000), 0);
    assert.equal(cacheLifetimeMs(query, records(0x80000000), 5000), 0);
    assert.equal(cacheLifetimeMs(query, records(0x7fffffff), 5000), MAX_CACHE_LIFE_MS);
  });

  it('keeps nothing longer than the maximum cache life', () => {
    assert.equal(cacheLifetimeMs(query, records(604_800), 5000), MAX_CACHE_LIFE_MS);
    assert.equal(cacheLifetimeMs(query, records(3600), 5000), 3_600_000);
    assert.equal(
      cacheLifetimeMs(findOperation('unfurl') as Operation, {}, 10 * MAX_CACHE_LIFE_MS),
      MAX_CACHE_LIFE_MS,
    );
  });
});
