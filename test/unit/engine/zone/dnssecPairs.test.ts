import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ZoneSession } from '../../../../src/engine/zone/index';

// The keys are example.com.'s, held in its parent's zone (com.): a DS is at home there, where at
// the apex of example.com. it is an error (RFC 4035 section 2.4; owner-rules.test.ts).
const ORIGIN = 'com.';
const HEAD =
  '$TTL 3600\ncom. IN SOA ns1.com. hostmaster.com. 1 3600 600 86400 300\ncom. IN NS ns1.com.\nns1.com. IN A 192.0.2.1\n';

// A key made with BIND's dnssec-keygen and its DS records from dnssec-dsfromkey (SHA-1,
// SHA-256, SHA-384): an oracle independent of the code under test.
const KSK =
  'example.com. IN DNSKEY 257 3 13 gD/q4JOfsEbXqeF3zr8EDIgDeX+SI/+yTfsyMzn8ZV/pKOF7NK/UO8WY wYi+ayXBdmmLzQGhpljnfbCah0Ngkg==';
const ZSK =
  'example.com. IN DNSKEY 256 3 13 Lt1H8tvX5F84z9ghmDnObZEvQjAN1Nct64FUfnNzyZJARATTj9bA11iz RTaMwWbKMkl6JpiJnPSIctYRFktJZw==';
const DS_SHA256 =
  'example.com. IN DS 23267 13 2 8FE7B58ED36FDCD32D41D14251FCB5F4666182200376D4D7C44B940ACE71EEB5';
const DS_SHA1 = 'example.com. IN DS 23267 13 1 C199AB33DF36E784D4F73A0D669167B0881D7460';
const DS_SHA384 =
  'example.com. IN DS 23267 13 4 9830EA4C50C7C0FC980788377E89EEA4AF4CE59BC236567924D369BB0AB7D828B0AEBC00FB7B7169944563BCC5040592';
const ZSK_DS =
  'example.com. IN DS 44916 13 2 E11499EF5704F9656C420577B4F7F18BFE39EE81BD48FF9050DC72104AEB7248';

function codes(body: string): string[] {
  return new ZoneSession(HEAD + body, { origin: ORIGIN })
    .problems()
    .map((p) => `${p.range.line + 1}:${p.code}:${p.severity}`);
}

function flipLastHex(line: string): string {
  const last = line.at(-1) === '0' ? '1' : '0';
  return line.slice(0, -1) + last;
}

describe('engine/zone checks: DS, CDS and CDNSKEY against the DNSKEY set', () => {
  it('DS records of every digest type that match a DNSKEY pass', () => {
    assert.deepEqual(codes([KSK, ZSK, DS_SHA256, DS_SHA1, DS_SHA384, ZSK_DS, ''].join('\n')), []);
  });

  it('CDS and CDNSKEY beside the DNSKEY set (RFC 7344) pass when they match', () => {
    const cds = DS_SHA256.replace(' DS ', ' CDS ');
    const cdnskey = KSK.replace(' DNSKEY ', ' CDNSKEY ');
    assert.deepEqual(codes([KSK, ZSK, cds, cdnskey, ''].join('\n')), []);
  });

  it('a wrong digest, an unknown key tag, a CDNSKEY no DNSKEY equals: warnings on their lines', () => {
    const body = [
      KSK,
      flipLastHex(DS_SHA256),
      DS_SHA256.replace('23267', '23268'),
      flipLastHex(DS_SHA1).replace(' DS ', ' CDS '),
      ZSK.replace('Lt1H8', 'Lt1H9').replace(' DNSKEY ', ' CDNSKEY '),
      '',
    ].join('\n');
    assert.deepEqual(codes(body), [
      '6:ds-without-dnskey:warning',
      '7:ds-without-dnskey:warning',
      '8:cds-without-dnskey:warning',
      '9:cdnskey-without-dnskey:warning',
    ]);
    const problems = new ZoneSession(HEAD + body, { origin: ORIGIN }).problems();
    assert.match(problems[0].message, /digest does not match DNSKEY 23267/);
    assert.match(problems[1].message, /key tag 23268 algorithm 13/);
    assert.deepEqual(problems[0].range.line, 5);
    assert.equal(problems[0].range.start, 0);
    assert.ok(problems[0].range.end >= DS_SHA256.length - 1, 'the whole record is marked');
  });

  it('a DS whose key is removed is flagged, and clears when the key comes back', () => {
    const session = new ZoneSession(HEAD + `${KSK}\n${ZSK}\n${DS_SHA256}\n${ZSK_DS}\n`, {
      origin: ORIGIN,
    });
    assert.deepEqual(session.problems(), []);
    // line 5 (index 4) is the KSK: the DS now names a key that is gone, then it is back
    session.edit(4, 5, '; the KSK was here');
    assert.deepEqual(
      session.problems().map((p) => `${p.range.line + 1}:${p.code}`),
      ['7:ds-without-dnskey'],
    );
    session.edit(4, 5, KSK);
    assert.deepEqual(session.problems(), []);
  });

  it('no DNSKEY in the file (a DS at a delegation), a delete request, an unknown digest: silent', () => {
    assert.deepEqual(
      codes(`sub NS ns.example.net.\n${DS_SHA256.replace('example.com.', 'sub')}\n`),
      [],
    );
    assert.deepEqual(
      codes(`${KSK}\nexample.com. CDS 0 0 0 00\nexample.com. CDNSKEY 0 3 0 AA==\n`),
      [],
    );
    assert.deepEqual(codes(`${KSK}\nexample.com. DS 23267 13 3 ${'AB'.repeat(32)}\n`), []);
  });

  it('keys made now by dnssec-keygen (RSA, ECDSA, Ed25519) match the DS dnssec-dsfromkey gives', function () {
    const dir = mkdtempSync(join(tmpdir(), 'hostlens-dnssec-pairs-'));
    try {
      const lines: string[] = [];
      for (const algorithm of ['RSASHA256', 'ECDSAP384SHA384', 'ED25519']) {
        let name: string;
        try {
          name = execFileSync(
            'dnssec-keygen',
            ['-q', '-K', dir, '-a', algorithm, '-f', 'KSK', '-n', 'ZONE', 'example.com'],
            { encoding: 'utf8' },
          ).trim();
        } catch {
          console.log('      (dnssec-keygen from bind9-utils is not installed: skipped)');
          this.skip();
        }
        const file = join(dir, `${name}.key`);
        const key = readFileSync(file, 'utf8')
          .split('\n')
          .find((l) => /\sDNSKEY\s/.test(l));
        assert.ok(key);
        lines.push(key);
        for (const digest of ['SHA-1', 'SHA-256', 'SHA-384']) {
          const ds = execFileSync('dnssec-dsfromkey', ['-a', digest, file], {
            encoding: 'utf8',
          }).trim();
          lines.push(ds, flipLastHex(ds).replace(' DS ', ' CDS '));
        }
      }
      const got = codes(lines.join('\n') + '\n');
      // every second DS-like line (the flipped CDS) and only those
      const expected = lines
        .map((l, i) => (/ CDS /.test(l) ? `${i + 5}:cds-without-dnskey:warning` : undefined))
        .filter((c) => c !== undefined);
      assert.deepEqual(got, expected);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
