// The c-ares status mapping and the SOA-behind-a-CNAME special case, with a stand-in resolver
// for the answers a well-behaved fixture server cannot produce (a malformed SOA answer).
import assert from 'node:assert/strict';
import type { promises as dns } from 'node:dns';
import { lookupType, outcomeFor } from '../../../../src/engine/dns/records';

function failing(code: string): Promise<never> {
  return Promise.reject(Object.assign(new Error(code), { code }));
}

describe('engine/dns records', () => {
  const table: Array<[string | undefined, ReturnType<typeof outcomeFor>]> = [
    ['ENOTFOUND', { kind: 'nxdomain' }],
    ['ENODATA', { kind: 'nodata' }],
    ['ETIMEOUT', { kind: 'failed', code: 'upstream_timeout' }],
    ['ESERVFAIL', { kind: 'failed', code: 'servfail' }],
    ['EREFUSED', { kind: 'failed', code: 'refused' }],
    ['ECONNREFUSED', { kind: 'failed', code: 'connection_refused' }],
    ['ECANCELLED', { kind: 'cancelled' }],
    ['EDESTRUCTION', { kind: 'cancelled' }],
    ['EBADRESP', { kind: 'failed', code: 'upstream_error' }],
    ['EFORMERR', { kind: 'failed', code: 'upstream_error' }],
    ['ENOTIMP', { kind: 'failed', code: 'upstream_error' }],
    [undefined, { kind: 'failed', code: 'upstream_error' }],
  ];
  for (const [code, outcome] of table) {
    it(`maps ${code ?? 'an error without a code'}`, () =>
      assert.deepEqual(outcomeFor(code), outcome));
  }

  it('a bad SOA answer at a name with a CNAME is NODATA', async () => {
    const resolver = {
      resolveSoa: () => failing('EBADRESP'),
      resolveCname: () => Promise.resolve(['target.test']),
    } as unknown as dns.Resolver;
    assert.deepEqual(await lookupType(resolver, 'alias.test', 'SOA'), { kind: 'nodata' });
  });

  it('a bad SOA answer at a name without a CNAME is upstream_error', async () => {
    const resolver = {
      resolveSoa: () => failing('EBADRESP'),
      resolveCname: () => failing('ENODATA'),
    } as unknown as dns.Resolver;
    assert.deepEqual(await lookupType(resolver, 'odd.test', 'SOA'), {
      kind: 'failed',
      code: 'upstream_error',
    });
  });

  it('an empty answer list (a CNAME chain with no data of the type) is NODATA', async () => {
    const resolver = { resolveMx: () => Promise.resolve([]) } as unknown as dns.Resolver;
    assert.deepEqual(await lookupType(resolver, 'alias.test', 'MX'), { kind: 'nodata' });
  });

  it('reads a CAA record whatever its tag is called', async () => {
    const resolver = {
      resolveCaa: () => Promise.resolve([{ critical: 128, contactemail: 'a@b.test' }]),
    } as unknown as dns.Resolver;
    assert.deepEqual(await lookupType(resolver, 'x.test', 'CAA'), {
      kind: 'records',
      records: [{ type: 'CAA', flags: 128, tag: 'contactemail', value: 'a@b.test' }],
    });
  });
});
