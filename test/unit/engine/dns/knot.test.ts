// Conformance against a real authoritative server: Knot DNS serves the fixture zones on a
// loopback port, and the engine's answers from it must equal its answers from the fixture
// server (and a few spelled-out records). Runs whenever knotd is installed.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { query, type AllTypesFailed } from '../../../../src/engine/dns/query';
import { LookupError } from '../../../../src/contract/errors';
import type { DnsRecord, QueryResult } from '../../../../src/contract/shapes';
import {
  loadFixtureZones,
  startDnsServer,
  ZONES_DIR,
  type DnsFixture,
} from '../../../support/dns-server';
import { findTool, startKnot, type KnotServer } from '../../../support/knot';

const HOSTS = [
  'example.test',
  'www.example.test',
  'web.example.test',
  'host1.example.test',
  'dangling.example.test',
  'nomail.example.test',
  'long.example.test',
  '_sip._tcp.example.test',
  '_dmarc.example.test',
  'ptr.example.test',
  'a.wild.example.test',
  'wild.example.test',
  'empty.example.test',
  'deep.empty.example.test',
  'bücher.example.test',
  'ns2.example.test',
  'mail.example.test',
  'nope.example.test',
  '192.0.2.30',
  '192.0.2.10',
  '192.0.2.99',
  '2001:db8::30',
];
const OPTIONS = { timeoutMs: 1000, tries: 2 };

describe('engine/dns query against Knot DNS', function () {
  this.timeout(20000);
  const knotd = findTool('knotd');
  let knot: KnotServer | undefined;
  let knotServer: string;
  let fixture: DnsFixture;

  before(async function () {
    if (knotd === undefined) {
      console.log('    (skipped: knotd is not installed; install Debian "knot" to run these)');
      this.skip();
    }
    const zones = readdirSync(ZONES_DIR)
      .filter((f) => f.endsWith('.zone'))
      .map((f) => ({ origin: f.replace(/\.zone$/, ''), file: join(ZONES_DIR, f) }));
    // The first zone is the one knotd must answer before the tests start.
    zones.sort((x, y) => (x.origin === 'example.test' ? -1 : y.origin === 'example.test' ? 1 : 0));
    knot = await startKnot(knotd, zones);
    knotServer = knot.address;
    fixture = await startDnsServer({ records: loadFixtureZones() });
  });

  after(async () => {
    await fixture?.close();
    await knot?.close();
  });

  it('serves the spelled-out apex records', async () => {
    const r = await query({ host: 'example.test', server: knotServer }, OPTIONS);
    assert.equal(r.status, 'NOERROR');
    assert.deepEqual(
      r.records.map((x) => x.type),
      ['A', 'A', 'AAAA', 'AAAA', 'CAA', 'CAA', 'CAA', 'MX', 'MX', 'NS', 'NS', 'TXT', 'TXT', 'SOA'],
    );
    assert.deepEqual(
      r.records.filter((x) => x.type === 'CAA'),
      [
        { type: 'CAA', flags: 0, tag: 'issue', value: 'ca.example.net', ttl: 300 },
        { type: 'CAA', flags: 0, tag: 'issuewild', value: ';', ttl: 300 },
        { type: 'CAA', flags: 128, tag: 'iodef', value: 'mailto:security@example.test', ttl: 300 },
      ],
    );
    const nullMx = await query(
      { host: 'nomail.example.test', types: ['MX'], server: knotServer },
      OPTIONS,
    );
    assert.deepEqual(nullMx.records, [{ type: 'MX', value: '.', priority: 0, ttl: 3600 }]);
  });

  it('REFUSED from a real server (a name outside its zones) stays refused', async () => {
    try {
      await query({ host: 'elsewhere.invalid', types: ['A', 'MX'], server: knotServer }, OPTIONS);
      assert.fail('expected the query to fail');
    } catch (err) {
      assert.ok(err instanceof LookupError);
      assert.equal(err.code, 'upstream_error');
      assert.deepEqual((err.cause as AllTypesFailed).failures, [
        { type: 'A', code: 'refused' },
        { type: 'MX', code: 'refused' },
      ]);
    }
  });

  for (const host of HOSTS) {
    it(`answers ${host} for all ten types with the fixture server's records`, async () => {
      const [fromKnot, fromFixture] = await Promise.all([
        query({ host, server: knotServer }, OPTIONS),
        query({ host, server: fixture.address }, OPTIONS),
      ]);
      assert.deepEqual(inCanonicalOrder(fromKnot), inCanonicalOrder(fromFixture));
    });
  }
});

/**
 * Knot keeps an RRset's records in canonical (sorted wire) order, the fixture in zone-file
 * order; the engine keeps whatever order arrives, so the comparison sorts within each type.
 */
function inCanonicalOrder(result: QueryResult): QueryResult {
  const groups = new Map<string, DnsRecord[]>();
  for (const record of result.records) {
    groups.set(record.type, [...(groups.get(record.type) ?? []), record]);
  }
  const records = [...groups.values()].flatMap((group) =>
    [...group].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
  );
  return { ...result, records };
}
