// An answer that follows CNAMEs says so, as dig and kdig do: each record that is not the asked
// name's own carries its owner (`name`), and `chain` lists the CNAMEs followed, in order. A
// client that knows only the seed reads the same `records` as before.
import * as assert from 'node:assert/strict';
import { query } from '../../../../src/engine/dns/query';
import type { QueryResult } from '../../../../src/contract/shapes';
import { loadFixtureZones, startDnsServer, type DnsFixture } from '../../../support/dns-server';
import { OpenApiChecker } from '../../../support/openapi';
import { runCli } from '../../cli/run';

describe('engine/dns CNAME chains in answers', () => {
  let dns: DnsFixture;
  const checker = new OpenApiChecker();

  before(async () => {
    dns = await startDnsServer({ records: loadFixtureZones(['example.test.zone']) });
  });
  after(() => dns.close());

  const ask = (host: string, types?: string[]) =>
    query({ host, ...(types ? { types } : {}), server: dns.address });

  function conforms(result: QueryResult): void {
    const validate = checker.validator('#/components/schemas/QueryResult');
    assert.ok(validate(result), JSON.stringify(validate.errors));
  }

  it('names the owner of records reached through CNAMEs and lists the chain', async () => {
    const result = await ask('www.example.test', ['A']);
    assert.deepEqual(result.chain, [
      { name: 'www.example.test.', type: 'CNAME', value: 'web.example.test.', ttl: 3600 },
      { name: 'web.example.test.', type: 'CNAME', value: 'host1.example.test.', ttl: 120 },
    ]);
    assert.deepEqual(
      result.records.map((r) => [r.name, r.type, r.value]),
      [
        ['host1.example.test.', 'A', '192.0.2.30'],
        ['host1.example.test.', 'A', '192.0.2.31'],
      ],
    );
    conforms(result);
  });

  it("leaves the asked name's own records without a name, and no chain when none was followed", async () => {
    const own = await ask('host1.example.test', ['A']);
    assert.equal(own.chain, undefined);
    assert.ok(own.records.every((r) => !('name' in r)));
    const alias = await ask('www.example.test', ['CNAME']);
    assert.equal(alias.chain, undefined);
    assert.deepEqual(alias.records, [{ type: 'CNAME', value: 'web.example.test.', ttl: 3600 }]);
  });

  it('all types: the chain once, each record with its real owner', async () => {
    const result = await ask('www.example.test');
    assert.equal(result.chain?.length, 2);
    const owners = new Set(result.records.filter((r) => r.type !== 'CNAME').map((r) => r.name));
    assert.deepEqual([...owners], ['host1.example.test.']);
    conforms(result);
  });

  it('a CNAME to a name that does not exist: the chain, no records', async () => {
    const result = await ask('dangling.example.test', ['A']);
    assert.deepEqual(result.records, []);
    assert.deepEqual(
      result.chain?.map((r) => [r.name, r.value]),
      [['dangling.example.test.', 'missing.example.test.']],
    );
  });

  it('text: the chain first, every line with its real owner, like dig', async () => {
    const r = await runCli([
      'query',
      'www.example.test',
      'A',
      '--server',
      dns.address,
      '--format',
      'text',
    ]);
    assert.equal(r.code, 0, r.stderr);
    const owners = r.stdout
      .split('\n')
      .filter((l) => l !== '' && !l.startsWith(';;'))
      .map((l) => l.split(/\s+/).slice(0, 1).concat(l.split(/\s+/).slice(3, 4)).join(' '));
    assert.deepEqual(owners, [
      'www.example.test. CNAME',
      'web.example.test. CNAME',
      'host1.example.test. A',
      'host1.example.test. A',
    ]);
    assert.match(r.stdout, /^;; status: NOERROR, 4 records$/m);
    assert.match(r.stdout, /^;; www\.example\.test\. is an alias of host1\.example\.test\.$/m);
    const dangling = await runCli([
      'query',
      'dangling.example.test',
      'A',
      '--server',
      dns.address,
      '--format',
      'text',
    ]);
    assert.match(
      dangling.stdout,
      /^dangling\.example\.test\.\s+3600\s+IN\s+CNAME\s+missing\.example\.test\.$/m,
    );
    assert.match(
      dangling.stdout,
      /^;; status: NXDOMAIN \(missing\.example\.test\. does not exist\)$/m,
    );
  });
});
