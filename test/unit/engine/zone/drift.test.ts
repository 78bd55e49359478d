// Drift against a real authoritative server: Knot DNS serves two zones on a loopback port,
// one that allows a zone transfer (AXFR path) and one that does not (one question per owner
// and type). Files that match exactly give no drift; files that differ in each way give it.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareZone, type DriftResult } from '../../../../src/engine/zone/drift';
import { ZoneSession } from '../../../../src/engine/zone/index';
import { main } from '../../../../src/cli/main';
import { PIPE } from '../../cli/run';
import { findKnotd, freePort, startKnot, type KnotServer } from '../../../support/knot-zones';

const LIVE = (zone: string) => `$TTL 3600
@ IN SOA ns1 hostmaster 2026112302 3600 600 86400 300
@ NS ns1
ns1 A 192.0.2.1
www 300 A 192.0.2.10
www 300 A 192.0.2.11
mail A 192.0.2.20
@ MX 10 mail
@ TXT "v=spf1 mx -all" "second string"
@ CAA 0 issue "ca.example.net"
_sip._tcp SRV 10 5 5060 www
alias CNAME www
key DNSKEY 257 3 13 mdsswUyr3DPW132mOi8V9xESWE8jTo0dxCjjnopKl+GqJxpVXckHAeF+KkxLbxILfDLUT0rAK9iUzy1L53eKGQ==
_443._tcp.www TLSA 3 1 1 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
sub NS ns.sub
ns.sub A 192.0.2.53
liveonly A 192.0.2.99
; ${zone}
`;

/**
 * The same zone written differently: other order, relative vs absolute, parentheses, units, and
 * RFC 3597 generic data of known types (issue 27: the same records as their usual form).
 */
const SAME = (zone: string) => `$ORIGIN ${zone}.
$TTL 1h
@ IN SOA ( ns1.${zone}. hostmaster
    2026112302 1h 10m 1d 5m )
  NS ns1
liveonly A 192.0.2.99
www 5m A 192.0.2.11
  300 A 192.0.2.10
ns1 A 192.0.2.1
@ MX 10 MAIL.${zone.toUpperCase()}.
mail TYPE1 \\# 4 C0000214
@ TXT "v=spf1 mx -all" "second\\032string"
@ CAA \\# 21 0005697373756563612e6578616d706c652e6e6574
_sip._tcp SRV 10 5 5060 www
alias CNAME www
key DNSKEY 257 3 13 mdsswUyr3DPW132mOi8V9xESWE8jTo0dxCjjnopKl+GqJxpVXckHAeF+KkxLbxILfDLUT0rAK9iUzy1L53eKGQ==
_443._tcp.www TLSA 3 1 1 0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF
sub NS ns.sub
ns.sub A 192.0.2.53
`;

/** Differs in each way: an older serial, a record missing live, one only live, other data, other TTL. */
const DIFFERENT = `$TTL 3600
@ IN SOA ns1 hostmaster 2026112301 3600 600 86400 300
@ NS ns1
ns1 A 192.0.2.1
www 300 A 192.0.2.10
www 300 A 192.0.2.11
mail 60 A 192.0.2.20
@ MX 10 mail
@ TXT "v=spf1 mx -all" "second string"
@ CAA 0 issue "other-ca.example.net"
_sip._tcp SRV 10 5 5060 www
alias CNAME www
key DNSKEY 257 3 13 mdsswUyr3DPW132mOi8V9xESWE8jTo0dxCjjnopKl+GqJxpVXckHAeF+KkxLbxILfDLUT0rAK9iUzy1L53eKGQ==
_443._tcp.www TLSA 3 1 1 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
sub NS ns.sub
ns.sub A 192.0.2.53
fileonly A 192.0.2.98
`;

function kinds(result: DriftResult): string[] {
  return result.drift.map((d) => `${d.kind} ${d.name} ${d.type} ${d.file} | ${d.live}`).sort();
}

describe('engine/zone drift against Knot DNS', function () {
  this.timeout(30000);
  const knotd = findKnotd();
  let knot: KnotServer | undefined;
  let server: string;
  let dir: string;

  before(async function () {
    if (knotd === undefined) {
      console.log('    (skipped: knotd is not installed; install Debian "knot" to run these)');
      this.skip();
    }
    knot = await startKnot(knotd, [
      { name: 'xfr.test', text: LIVE('xfr.test'), transfer: true },
      { name: 'noxfr.test', text: LIVE('noxfr.test'), transfer: false },
    ]);
    server = knot.server;
    dir = knot.dir;
  });

  after(async () => {
    await knot?.close();
  });

  function records(text: string, origin: string) {
    const session = new ZoneSession(text, { origin });
    assert.deepEqual(
      session.problems().filter((p) => p.severity === 'error'),
      [],
    );
    return session.records();
  }

  for (const zone of ['xfr.test', 'noxfr.test']) {
    const method = zone === 'xfr.test' ? 'axfr' : 'query';

    it(`${zone} (${method}): a file written differently but equal has no drift`, async () => {
      const result = await compareZone(`${zone}.`, records(SAME(zone), `${zone}.`), { server });
      assert.deepEqual(kinds(result), []);
      assert.deepEqual(result.serials, [{ server, serial: 2026112302, method }]);
    });

    it(`${zone} (${method}): missing, extra, changed data, changed TTL, older serial`, async () => {
      const result = await compareZone(`${zone}.`, records(DIFFERENT, `${zone}.`), { server });
      // Both paths know every live TTL: a transfer carries them, and the engine's query gives
      // each record its own.
      const ttl = '3600';
      const expected = [
        `changed ${zone}. CAA 3600 0 issue "other-ca.example.net" | ${ttl} 0 issue "ca.example.net"`,
        `changed ${zone}. SOA 3600 ns1.${zone}. hostmaster.${zone}. 2026112301 3600 600 86400 300 | ${ttl} ns1.${zone}. hostmaster.${zone}. 2026112302 3600 600 86400 300`,
        `missing fileonly.${zone}. A 3600 192.0.2.98 | null`,
      ];
      // Only a transfer sees records that the file does not name.
      expected.push(`changed mail.${zone}. A 60 192.0.2.20 | 3600 192.0.2.20`);
      if (method === 'axfr') expected.push(`extra liveonly.${zone}. A null | 3600 192.0.2.99`);
      assert.deepEqual(kinds(result), expected.sort());
      assert.deepEqual(result.serials, [{ server, serial: 2026112302, method }]);
      const fileOnly = result.drift.find((d) => d.kind === 'missing')!;
      // 1-based, as zone-check and editors count lines: `fileonly` is the file's 17th line.
      assert.equal(fileOnly.line, 17);
    });
  }

  it('hostlens zone-diff: exit 0 and no drift on a match, 1 with the drift otherwise', async () => {
    const same = join(dir, 'same.zone');
    const different = join(dir, 'different.zone');
    writeFileSync(same, SAME('xfr.test'));
    writeFileSync(different, DIFFERENT);
    const out: string[] = [];
    // eslint-disable-next-line @typescript-eslint/unbound-method
    const write = process.stdout.write;
    process.stdout.write = (chunk: string) => (out.push(String(chunk)), true);
    let codes: number[];
    try {
      codes = [
        await main(['zone-diff', same, '--server', server], PIPE),
        await main(['zone-diff', different, '--origin', 'xfr.test', '--server', server], PIPE),
      ];
    } finally {
      process.stdout.write = write;
    }
    assert.deepEqual(codes, [0, 1]);
    const [first, second] = out.map((o) => JSON.parse(o) as DriftResult);
    assert.deepEqual(first.drift, []);
    assert.equal(first.serials[0].serial, 2026112302);
    assert.ok(second.drift.some((d) => d.kind === 'extra' && d.name === 'liveonly.xfr.test.'));
  });

  it('a server that does not answer is reported with no serial (exit 1 from the command)', async () => {
    const port = await freePort();
    const result = await compareZone('xfr.test.', records(SAME('xfr.test'), 'xfr.test.'), {
      server: `127.0.0.1:${port}`,
      timeoutMs: 300,
    });
    assert.equal(result.serials[0].serial, null);
    assert.ok(result.serials[0].error);
  });
});
