// The validator's parts: trust anchors, key tags and DS digests against BIND's own tools, the
// canonical name order, base32hex, the `dnssec` switch, and every error path of a look-up.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createSocket, type Socket } from 'node:dgram';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as packet from 'dns-packet';
import { LookupError } from '../../../../../src/contract/errors';
import {
  anchorFor,
  loadTrustAnchors,
  parseTrustAnchors,
  ROOT_ANCHORS,
} from '../../../../../src/engine/dns/dnssec/anchors';
import { keyBits } from '../../../../../src/engine/dns/dnssec/crypto';
import { dsDigest, keyTag } from '../../../../../src/engine/dns/keys';
import { nsec3Hash } from '../../../../../src/engine/dns/dnssec/denial';
import { fromBase32Hex as decodeBase32Hex } from '../../../../../src/engine/dns/rdata/base32hex';
import type { Exchange } from '../../../../../src/engine/dns/dnssec/exchange';
import { queryWithDnssec, wantsDnssec } from '../../../../../src/engine/dns/dnssec/index';
import { compareNames } from '../../../../../src/engine/dns/dnssec/names';
import { EmbeddedServices } from '../../../../../src/services/embedded';
import { describeTool, needTools, type ReferenceTool } from '../../../../support/reference-tools';

describe('engine/dns/dnssec parts', () => {
  describe('trust anchors', () => {
    it('bundles the IANA root anchors, KSK-2017 and KSK-2024, with their dates', () => {
      assert.deepEqual(
        ROOT_ANCHORS.map((a) => [a.name, a.keyTag, a.algorithm, a.digestType, a.validFrom]),
        [
          ['KSK-2017', 20326, 8, 2, '2017-02-02T00:00:00Z'],
          ['KSK-2024', 38696, 8, 2, '2024-07-18T00:00:00Z'],
        ],
      );
      const source = loadTrustAnchors({});
      assert.ok(source.ok);
      assert.equal(source.anchors[0].zone, '.');
      assert.equal(source.anchors[0].ds.length, 2);
    });

    it('reads DS and DNSKEY lines in zone-file form: TTL, class, comments, parentheses', () => {
      const anchors = parseTrustAnchors(
        [
          '; a private root',
          '$TTL 3600',
          '. 3600 IN DS 12345 13 2 (',
          '    AABBCCDD EEFF ) ; split digest',
          'Example.Test. IN DNSKEY 257 3 15 ( l02Woi0iS8Aa25FQkUd9RMzZHJpBoRQwAQEX1SxZJA4= )',
          'example.test. IN A 192.0.2.1',
          'broken. IN DS 1 2',
          'other. DS 7 8 2 zz',
        ].join('\n'),
      );
      assert.deepEqual(
        anchors.map((a) => [a.zone, a.ds.length, a.dnskey.length]),
        [
          ['.', 1, 0],
          ['example.test.', 0, 1],
        ],
      );
      assert.equal(anchors[0].ds[0].digest.toString('hex'), 'aabbccddeeff');
      assert.equal(anchors[1].dnskey[0].key.length, 32);
      assert.equal(anchorFor(anchors, 'www.example.test.')?.zone, 'example.test.');
      assert.equal(anchorFor(anchors, 'www.example.org.')?.zone, '.');
    });

    it('says why when HOSTLENS_TRUST_ANCHORS cannot be used', () => {
      const missing = loadTrustAnchors({ HOSTLENS_TRUST_ANCHORS: '/nonexistent/anchors' });
      assert.ok(!missing.ok);
      assert.match(missing.reason, /cannot be read/);
      const dir = mkdtempSync(join(tmpdir(), 'hostlens-anchors-'));
      try {
        writeFileSync(join(dir, 'a.txt'), 'example. IN A 192.0.2.1\n');
        const empty = loadTrustAnchors({ HOSTLENS_TRUST_ANCHORS: join(dir, 'a.txt') });
        assert.ok(!empty.ok);
        assert.match(empty.reason, /no DS or DNSKEY/);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  describe('keys against BIND (dnssec-keygen, dnssec-dsfromkey)', function () {
    this.timeout(30000);
    const cases: Array<[string, number]> = [
      ['RSASHA256', 2048],
      ['RSASHA512', 1024],
      ['ECDSAP256SHA256', 256],
      ['ECDSAP384SHA384', 384],
      ['ED25519', 256],
      ['ED448', 456],
    ];
    let dir: string;
    let keygen: ReferenceTool;
    let dsfromkey: ReferenceTool;
    before(function () {
      const tools = needTools(this, 'dnssec-keygen', 'dnssec-dsfromkey');
      keygen = tools['dnssec-keygen'];
      dsfromkey = tools['dnssec-dsfromkey'];
      console.log(`    ${describeTool(keygen, '-q -a ALGORITHM -n ZONE')}`);
      console.log(`    ${describeTool(dsfromkey, '-a SHA-1|SHA-256|SHA-384 KEYFILE')}`);
      dir = mkdtempSync(join(tmpdir(), 'hostlens-keys-'));
    });
    after(() => {
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    });
    for (const [algorithm, bits] of cases) {
      it(`${algorithm}: key tag, SHA-1/256/384 DS digests and size match`, () => {
        const args = ['-q', '-K', dir, '-a', algorithm, '-n', 'ZONE'];
        if (algorithm.startsWith('RSA')) args.push('-b', String(bits));
        const base = execFileSync(keygen.path, [...args, 'example.test.'], {
          encoding: 'utf8',
        }).trim();
        const keyFile = join(dir, `${base}.key`);
        const [anchor] = parseTrustAnchors(readFileSync(keyFile, 'utf8'));
        const key = anchor.dnskey[0];
        assert.equal(keyTag(key), Number(/\+(\d+)$/.exec(base)![1]));
        assert.equal(keyBits(key), bits);
        for (const [flag, type] of [
          ['-1', 1],
          ['-2', 2],
          ['-a', 4],
        ] as const) {
          const dsArgs = flag === '-a' ? ['-a', 'SHA-384'] : [flag];
          const line = execFileSync(dsfromkey.path, [...dsArgs, keyFile], {
            encoding: 'utf8',
          });
          const digest = line.trim().split(/\s+/).slice(6).join('');
          assert.equal(dsDigest('example.test.', key, type)?.toString('hex').toUpperCase(), digest);
        }
      });
    }
  });

  describe('names and hashes', () => {
    it('orders names canonically (RFC 4034 section 6.1 example)', () => {
      const ordered = [
        'example.',
        'a.example.',
        'yljkjljk.a.example.',
        'Z.a.example.',
        'zABC.a.EXAMPLE.',
        'z.example.',
        '\\001.z.example.',
        '*.z.example.',
        '\\200.z.example.',
      ];
      // The escaped labels stand for octets; spell them as such for the comparison.
      const names = ordered.map((n) =>
        n.replace('\\001', '\x01').replace('\\200', String.fromCharCode(0x7f)),
      );
      const shuffled = [...names].reverse();
      assert.deepEqual(shuffled.sort(compareNames), names);
    });

    it('hashes names as RFC 5155 appendix A does', () => {
      // RFC 5155 appendix A: salt aabbccdd, 12 iterations.
      const salt = Buffer.from('aabbccdd', 'hex');
      const expect = (name: string, hash: string) =>
        assert.deepEqual(nsec3Hash(name, salt, 12), decodeBase32Hex(hash));
      expect('example.', '0p9mhaveqvm6t7vbl5lop2u3t2rp3tom');
      expect('a.example.', '35mthgpgcu1qg68fab165klnsnk3dpvl');
      expect('*.w.example.', 'r53bq7cc2uvmubfu5ocmm6pers9tk9en');
      assert.equal(decodeBase32Hex('not base32!'), undefined);
    });
  });

  describe('the dnssec switch', () => {
    it('takes true/false as the query string, the CLI and typed callers give them', () => {
      for (const on of [true, 'true', 'TRUE', '1', 'yes']) assert.equal(wantsDnssec(on), true);
      for (const off of [undefined, null, false, 'false', '0', 'no', ''])
        assert.equal(wantsDnssec(off), false);
      for (const bad of ['maybe', 2, {}]) {
        assert.throws(
          () => wantsDnssec(bad),
          (e: unknown) => e instanceof LookupError && e.code === 'invalid_argument',
        );
      }
    });

    it('is refused by the service with invalid_argument when it is not a switch', async () => {
      const services = new EmbeddedServices();
      await assert.rejects(
        services.domain.query({ host: 'example.test', dnssec: 'sometimes' as unknown as boolean }),
        (e: unknown) => e instanceof LookupError && e.code === 'invalid_argument',
      );
    });
  });

  describe('failures', () => {
    let silent: Socket;
    let silentServer: string;
    before(async () => {
      silent = createSocket('udp4');
      await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
      silentServer = `127.0.0.1:${silent.address().port}`;
    });
    after(() => silent.close());

    it('a nameserver that never answers: upstream_timeout for the whole look-up', async () => {
      await assert.rejects(
        queryWithDnssec(
          { host: 'www.example.test', types: ['A', 'MX'], server: silentServer },
          { timeoutMs: 100, tries: 1 },
        ),
        (e: unknown) => e instanceof LookupError && e.code === 'upstream_timeout',
      );
    });

    it('a bad server or type is refused before any question', async () => {
      await assert.rejects(
        queryWithDnssec({ host: 'example.test', server: 'not a server!' }),
        (e: unknown) => e instanceof LookupError && e.code === 'invalid_server',
      );
      await assert.rejects(
        queryWithDnssec({ host: 'example.test', types: ['BOGUS'], server: silentServer }),
        (e: unknown) => e instanceof LookupError && e.code === 'invalid_type',
      );
    });

    it('a cancelled look-up ends with cancelled', async () => {
      const controller = new AbortController();
      const pending = queryWithDnssec(
        { host: 'www.example.test', types: ['A'], server: silentServer },
        { signal: controller.signal, timeoutMs: 5000, tries: 1 },
      );
      controller.abort();
      await assert.rejects(
        pending,
        (e: unknown) => e instanceof LookupError && e.code === 'cancelled',
      );
    });

    /** An answer with the record but nothing else: the chain's questions fail. */
    const answerOnly =
      (failWith: LookupError): Exchange =>
      (name, type) => {
        if (type !== 'A') return Promise.reject(failWith);
        return Promise.resolve(
          packet.encode({
            type: 'response',
            id: 1,
            questions: [{ name, type: 'A' }],
            answers: [{ name, type: 'A', ttl: 60, data: '192.0.2.1' }],
          }),
        );
      };

    it('a chain question that times out: indeterminate, records still shown', async () => {
      const r = await queryWithDnssec(
        { host: 'www.example.test', types: ['A'], server: '127.0.0.1:53' },
        { exchange: answerOnly(new LookupError('upstream_timeout', 'No answer')) },
      );
      assert.equal(r.dnssec?.status, 'indeterminate');
      assert.match(r.dnssec.reason, /DNSKEY question for \. failed/);
      assert.deepEqual(
        r.records.map((x) => x.value),
        ['192.0.2.1'],
      );
    });

    it('a server that refuses the chain (an authoritative one, not a resolver): indeterminate, not bogus', async () => {
      // What Knot or BIND answer, as authoritative servers, when asked for the root's keys.
      const refusing: Exchange = (name, type) => {
        const flags = type === 'A' ? 0 : 5; // REFUSED
        return Promise.resolve(
          packet.encode({
            type: 'response',
            id: 1,
            flags,
            questions: [{ name, type: type as packet.RecordType }],
            answers: type === 'A' ? [{ name, type: 'A', ttl: 60, data: '192.0.2.1' }] : [],
          }),
        );
      };
      const r = await queryWithDnssec(
        { host: 'www.example.test', types: ['A'], server: '127.0.0.1:53' },
        { exchange: refusing },
      );
      assert.equal(r.dnssec?.status, 'indeterminate');
      assert.match(r.dnssec.reason, /DNSKEY question for \. failed: .*REFUSED.*resolver/);
    });

    it('an unreadable anchor file: indeterminate with the reason', async () => {
      const r = await queryWithDnssec(
        { host: 'www.example.test', types: ['A'], server: '127.0.0.1:53' },
        {
          exchange: answerOnly(new LookupError('upstream_error', 'x')),
          env: { HOSTLENS_TRUST_ANCHORS: '/nonexistent/anchors' },
        },
      );
      assert.equal(r.dnssec?.status, 'indeterminate');
      assert.match(r.dnssec.reason, /HOSTLENS_TRUST_ANCHORS/);
    });

    it('a name no anchor covers: indeterminate', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'hostlens-anchors-'));
      try {
        writeFileSync(join(dir, 'a.txt'), 'other. IN DS 1 13 2 AABB\n');
        const r = await queryWithDnssec(
          { host: 'www.example.test', types: ['A'], server: '127.0.0.1:53' },
          {
            exchange: answerOnly(new LookupError('upstream_error', 'x')),
            env: { HOSTLENS_TRUST_ANCHORS: join(dir, 'a.txt') },
          },
        );
        assert.equal(r.dnssec?.status, 'indeterminate');
        assert.match(r.dnssec.reason, /no trust anchor covers/);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});
