// Property tests: whatever bytes a nameserver puts in a signature, a key or an NSEC3 record,
// the validator comes back with a verdict: no exception, no hang (mocha's timeout would fire).
import assert from 'node:assert/strict';
import fc from 'fast-check';
import * as packet from 'dns-packet';
import { LookupError } from '../../../../../src/contract/errors';
import { verifySignature, keyBits } from '../../../../../src/engine/dns/dnssec/crypto';
import { keyTag } from '../../../../../src/engine/dns/keys';
import { proveDenial, type Nsec3 } from '../../../../../src/engine/dns/dnssec/denial';
import type { Exchange } from '../../../../../src/engine/dns/dnssec/exchange';
import { queryWithDnssec } from '../../../../../src/engine/dns/dnssec/index';
import { checkRrset, type RRset } from '../../../../../src/engine/dns/dnssec/rrset';

const SEED = 1414;
const STATUSES = ['secure', 'insecure', 'bogus', 'indeterminate'];
const bytes = (max: number) => fc.uint8Array({ maxLength: max }).map((a) => Buffer.from(a));
const algorithm = fc.constantFrom(5, 7, 8, 10, 13, 14, 15, 16, 0, 3, 253, 255);
const label = fc.stringMatching(/^[a-z0-9*-]{1,12}$/);
const name = fc.array(label, { minLength: 0, maxLength: 4 }).map((l) => `${l.join('.')}.`);
const typeList = fc.subarray(['A', 'NS', 'SOA', 'CNAME', 'DS', 'RRSIG', 'NSEC3', 'DNAME', 'TXT']);

const nsec3 = fc.record({
  zone: fc.constantFrom('example.', '.', 'a.example.'),
  hash: bytes(24),
  algorithm: fc.constantFrom(0, 1, 2),
  flags: fc.integer({ min: 0, max: 255 }),
  iterations: fc.integer({ min: 0, max: 200 }),
  salt: bytes(16),
  next: bytes(24),
  types: typeList.map((t) => new Set(t)),
}) as fc.Arbitrary<Nsec3>;

describe('engine/dns/dnssec properties', function () {
  this.timeout(60000);

  it('any bytes as key and signature: a boolean, never an exception', () => {
    fc.assert(
      fc.property(
        algorithm,
        fc.integer({ min: 0, max: 65535 }),
        bytes(600),
        bytes(600),
        bytes(64),
        (alg, flags, key, sig, data) => {
          const k = { flags, algorithm: alg, key };
          assert.equal(typeof verifySignature(k, data, sig), 'boolean');
          assert.ok(Number.isInteger(keyTag(k)) && Number.isInteger(keyBits(k)));
        },
      ),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('any RRSIG over any RRset with any keys: a check result, never an exception', () => {
    const sig = fc.record({
      typeCovered: fc.constantFrom('A', 'TXT', 'DNSKEY'),
      algorithm,
      labels: fc.integer({ min: 0, max: 255 }),
      originalTTL: fc.nat(),
      expiration: fc.nat({ max: 0xffffffff }),
      inception: fc.nat({ max: 0xffffffff }),
      keyTag: fc.integer({ min: 0, max: 65535 }),
      signersName: name,
      signature: bytes(300),
    });
    fc.assert(
      fc.property(
        name,
        fc.array(sig, { maxLength: 3 }),
        fc.array(
          fc.record({ flags: fc.constantFrom(256, 257, 0, 385), algorithm, key: bytes(300) }),
          { maxLength: 3 },
        ),
        (owner, sigs, keys) => {
          const set: RRset = {
            name: owner,
            type: 'A',
            ttl: 60,
            data: [{ value: '192.0.2.1' }],
            rdata: [Buffer.from([192, 0, 2, 1])],
            records: [],
            sigs,
          };
          const check = checkRrset(set, owner, keys, Date.now());
          assert.equal(typeof check.ok, 'boolean');
        },
      ),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('any NSEC3 records: a denial verdict, never an exception', () => {
    fc.assert(
      fc.property(
        name,
        fc.constantFrom('A', 'DS', 'TXT'),
        fc.boolean(),
        fc.array(nsec3, { maxLength: 6 }),
        (qname, qtype, nx, records) => {
          const denial = proveDenial(qname, qtype, nx, [], records);
          assert.ok(
            ['nxdomain', 'nodata', 'insecure_delegation', 'insecure', 'unproven'].includes(
              denial.kind,
            ),
          );
        },
      ),
      { seed: SEED, numRuns: 300 },
    );
  });

  /** A nameserver whose every DNSSEC field is arbitrary bytes. */
  const world = fc.record({
    keys: fc.array(fc.record({ flags: fc.constantFrom(256, 257), algorithm, key: bytes(200) }), {
      minLength: 1,
      maxLength: 3,
    }),
    signature: bytes(200),
    keyTagOf: fc.integer({ min: 0, max: 65535 }),
    sigAlgorithm: algorithm,
    digest: bytes(48),
    nsec3s: fc.array(
      fc.record({
        hash: bytes(20),
        salt: bytes(8),
        next: bytes(20),
        flags: fc.integer({ min: 0, max: 1 }),
        iterations: fc.integer({ min: 0, max: 20 }),
      }),
      { maxLength: 3 },
    ),
    rcode: fc.constantFrom('NOERROR', 'NXDOMAIN', 'SERVFAIL'),
    garbage: fc.option(bytes(80), { nil: undefined }),
  });

  type World = typeof world extends fc.Arbitrary<infer T> ? T : never;

  function exchangeFor(w: World): Exchange {
    return (qname, qtype) => Promise.resolve().then(() => answer(qname, qtype));
    function answer(qname: string, qtype: string): Buffer {
      if (w.garbage !== undefined && qtype === 'DS') return Buffer.from(w.garbage);
      const rrsig = (covered: string, signer: string) => ({
        name: qname,
        type: 'RRSIG' as const,
        ttl: 60,
        data: {
          typeCovered: covered,
          algorithm: w.sigAlgorithm,
          labels: qname.split('.').filter(Boolean).length,
          originalTTL: 60,
          expiration: 0xfffffff0,
          inception: 1,
          keyTag: w.keyTagOf,
          signersName: signer,
          signature: w.signature,
        },
      });
      const answers: packet.Answer[] = [];
      if (qtype === 'DNSKEY') {
        for (const k of w.keys) answers.push({ name: qname, type: 'DNSKEY', ttl: 60, data: k });
      } else if (qtype === 'DS') {
        answers.push({
          name: qname,
          type: 'DS',
          ttl: 60,
          data: { keyTag: w.keyTagOf, algorithm: w.sigAlgorithm, digestType: 2, digest: w.digest },
        });
      } else if (w.rcode === 'NOERROR') {
        answers.push({ name: qname, type: 'A', ttl: 60, data: '192.0.2.1' });
      }
      if (answers.length > 0) answers.push(rrsig(answers[0].type, qname));
      const authorities = w.nsec3s.map((n: World['nsec3s'][number]): packet.Answer => ({
        name: `${n.hash.toString('hex').slice(0, 32) || '0'}.${qname}`,
        type: 'NSEC3' as const,
        ttl: 60,
        data: {
          algorithm: 1,
          flags: n.flags,
          iterations: n.iterations,
          salt: n.salt,
          nextDomain: n.next,
          rrtypes: ['A'],
        },
      }));
      return packet.encode({
        type: 'response',
        id: 1,
        // dns-packet encodes the RCODE only through the flags' low bits.
        flags: { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3 }[w.rcode],
        questions: [{ name: qname, type: qtype as packet.RecordType }],
        answers,
        authorities,
      });
    }
  }

  it('a whole look-up against a nameserver of arbitrary bytes: one of the four verdicts', async () => {
    await fc.assert(
      fc.asyncProperty(world, async (w) => {
        const r = await queryWithDnssec(
          { host: 'www.example.test', types: ['A', 'TXT'], server: '127.0.0.1:53' },
          { exchange: exchangeFor(w) },
        ).catch((e: unknown) => e as Error);
        if (r instanceof Error) {
          // Only the contract's error: every type failed (SERVFAIL, undecodable answers).
          assert.ok(r instanceof LookupError, String(r));
          return;
        }
        assert.ok(STATUSES.includes(r.dnssec!.status), r.dnssec!.status);
        assert.equal(typeof r.dnssec!.reason, 'string');
      }),
      { seed: SEED, numRuns: 150 },
    );
  });
});
