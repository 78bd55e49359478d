// Conformance against a real authoritative server: Knot DNS serves the fixture zones on a
// loopback port, and the engine's answers from it must equal its answers from the fixture
// server (and a few spelled-out records). Runs whenever knotd is installed.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { accessSync, constants, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { query, type AllTypesFailed } from '../../../../src/engine/dns/query';
import { LookupError } from '../../../../src/contract/errors';
import type { DnsRecord, QueryResult } from '../../../../src/contract/shapes';
import {
  loadFixtureZones,
  startDnsServer,
  ZONES_DIR,
  type DnsFixture,
} from '../../../support/dns-server';

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

function findKnotd(): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin'];
  for (const dir of dirs) {
    const candidate = join(dir, 'knotd');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

async function freePort(): Promise<number> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(resolve));
  return port;
}

function knotConfig(dir: string, port: number): string {
  const zones = readdirSync(ZONES_DIR).filter((f) => f.endsWith('.zone'));
  return [
    'server:',
    `    rundir: "${dir}"`,
    `    listen: 127.0.0.1@${port}`,
    'database:',
    `    storage: "${dir}"`,
    'log:',
    '  - target: stderr',
    '    any: warning',
    'zone:',
    ...zones.flatMap((f) => [
      `  - domain: ${f.replace(/\.zone$/, '')}`,
      `    file: "${join(ZONES_DIR, f)}"`,
      '    zonefile-sync: -1',
      '    journal-content: none',
    ]),
    '',
  ].join('\n');
}

describe('engine/dns query against Knot DNS', function () {
  this.timeout(20000);
  const knotd = findKnotd();
  let dir: string;
  let knot: ChildProcess | undefined;
  let knotLog = '';
  let knotServer: string;
  let fixture: DnsFixture;

  before(async function () {
    if (knotd === undefined) {
      console.log('    (skipped: knotd is not installed; install Debian "knot" to run these)');
      this.skip();
    }
    dir = mkdtempSync(join(tmpdir(), 'hostlens-knot-'));
    const port = await freePort();
    writeFileSync(join(dir, 'knot.conf'), knotConfig(dir, port));
    knot = spawn(knotd, ['-c', join(dir, 'knot.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
    knot.stderr?.on('data', (chunk: Buffer) => (knotLog += chunk.toString()));
    knotServer = `127.0.0.1:${port}`;
    fixture = await startDnsServer({ records: loadFixtureZones() });
    await waitUntilServing(
      knotServer,
      () => knot?.exitCode ?? null,
      () => knotLog,
    );
  });

  after(async () => {
    await fixture?.close();
    if (knot !== undefined && knot.exitCode === null) {
      const exited = new Promise((resolve) => knot!.once('exit', resolve));
      knot.kill('SIGTERM');
      const timer = setTimeout(() => knot!.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
    }
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
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

async function waitUntilServing(
  server: string,
  exitCode: () => number | null,
  log: () => string,
): Promise<void> {
  const deadline = Date.now() + 10000;
  let last: unknown;
  while (Date.now() < deadline) {
    if (exitCode() !== null) throw new Error(`knotd exited (${exitCode()}): ${log()}`);
    try {
      const r: QueryResult = await query(
        { host: 'example.test', types: ['SOA'], server },
        { timeoutMs: 300, tries: 1 },
      );
      if (r.records.length > 0) return;
    } catch (err) {
      last = err;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`knotd did not serve the zones in time: ${String(last)} ${log()}`);
}
