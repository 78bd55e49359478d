// Denial proofs from hand-built NSEC and NSEC3 chains: what each proves, and what it does not.
import assert from 'node:assert/strict';
import {
  MAX_NSEC3_ITERATIONS,
  nsec3Hash,
  proveDenial,
  type Nsec,
  type Nsec3,
} from '../../../../../src/engine/dns/dnssec/denial';

const nsec = (owner: string, next: string, types: string[]): Nsec => ({
  owner,
  next,
  types: new Set(types),
});

// example. -> a.example. -> d.example. (a delegation without DS) -> x.y.example. -> example.
const CHAIN = [
  nsec('example.', 'a.example.', ['SOA', 'NS', 'NSEC', 'RRSIG', 'DNSKEY']),
  nsec('a.example.', 'd.example.', ['A', 'NSEC', 'RRSIG']),
  nsec('d.example.', 'x.y.example.', ['NS', 'NSEC', 'RRSIG']),
  nsec('x.y.example.', 'example.', ['TXT', 'NSEC', 'RRSIG']),
];

describe('engine/dns/dnssec denial proofs', () => {
  describe('NSEC', () => {
    it('NXDOMAIN needs the name covered and the wildcard covered', () => {
      assert.equal(proveDenial('b.example.', 'A', true, [], []).kind, 'unproven');
      assert.equal(proveDenial('b.example.', 'A', true, CHAIN, []).kind, 'nxdomain');
      // Only the span over the name, not the one over *.example.: not proven.
      assert.equal(proveDenial('b.example.', 'A', true, [CHAIN[1]], []).kind, 'unproven');
    });

    it('NODATA from the matching NSEC, refused when it lists the type or a CNAME', () => {
      assert.equal(proveDenial('a.example.', 'TXT', false, CHAIN, []).kind, 'nodata');
      assert.equal(proveDenial('a.example.', 'A', false, CHAIN, []).kind, 'unproven');
      const alias = [nsec('a.example.', 'd.example.', ['CNAME', 'NSEC', 'RRSIG'])];
      assert.equal(proveDenial('a.example.', 'TXT', false, alias, []).kind, 'unproven');
    });

    it('an empty non-terminal is NODATA, never NXDOMAIN', () => {
      assert.equal(proveDenial('y.example.', 'A', false, CHAIN, []).kind, 'nodata');
      assert.equal(proveDenial('y.example.', 'A', true, CHAIN, []).kind, 'unproven');
    });

    it('DS: a delegation without DS is insecure; the child apex cannot deny its own DS', () => {
      assert.deepEqual(proveDenial('d.example.', 'DS', false, CHAIN, []), {
        kind: 'insecure_delegation',
        optOut: false,
      });
      assert.equal(proveDenial('a.example.', 'DS', false, CHAIN, []).kind, 'nodata');
      assert.equal(proveDenial('example.', 'DS', false, CHAIN, []).kind, 'unproven');
    });

    it('the parent side of a delegation proves nothing about names below it', () => {
      assert.equal(proveDenial('d.example.', 'A', false, CHAIN, []).kind, 'unproven');
      assert.equal(proveDenial('www.d.example.', 'A', true, CHAIN, []).kind, 'unproven');
    });
  });

  describe('NSEC3', () => {
    const salt = Buffer.from('ab', 'hex');
    /** A two-record chain over example. and a.example. (each pointing at the other). */
    function chain(flags: number, iterations = 1): Nsec3[] {
      const apex = nsec3Hash('example.', salt, iterations);
      const a = nsec3Hash('a.example.', salt, iterations);
      const record = (hash: Buffer, next: Buffer, types: string[]): Nsec3 => ({
        zone: 'example.',
        hash,
        next,
        algorithm: 1,
        flags,
        iterations,
        salt,
        types: new Set(types),
      });
      return [
        record(apex, a, ['SOA', 'NS', 'DNSKEY', 'NSEC3PARAM', 'RRSIG']),
        record(a, apex, ['A', 'RRSIG']),
      ];
    }

    it('NXDOMAIN by the closest encloser proof and a covered wildcard', () => {
      assert.equal(proveDenial('b.example.', 'A', true, [], chain(0)).kind, 'nxdomain');
      assert.equal(proveDenial('x.b.example.', 'A', true, [], chain(0)).kind, 'nxdomain');
    });

    it('NODATA from the matching record', () => {
      assert.equal(proveDenial('a.example.', 'TXT', false, [], chain(0)).kind, 'nodata');
      assert.equal(proveDenial('a.example.', 'A', false, [], chain(0)).kind, 'unproven');
    });

    it('DS under an opt-out span is an insecure delegation; without opt-out it is unproven', () => {
      assert.deepEqual(proveDenial('b.example.', 'DS', false, [], chain(1)), {
        kind: 'insecure_delegation',
        optOut: true,
      });
      assert.equal(proveDenial('b.example.', 'DS', false, [], chain(0)).kind, 'unproven');
    });

    it('more iterations than validators accept: insecure (RFC 9276)', () => {
      const heavy = chain(0, MAX_NSEC3_ITERATIONS + 1);
      assert.equal(proveDenial('b.example.', 'A', true, [], heavy).kind, 'insecure');
    });

    it('unknown hash algorithms and flags are ignored', () => {
      const odd = chain(0).map((r) => ({ ...r, algorithm: 2 }));
      assert.equal(proveDenial('b.example.', 'A', true, [], odd).kind, 'unproven');
      const flagged = chain(0x80);
      assert.equal(proveDenial('b.example.', 'A', true, [], flagged).kind, 'unproven');
    });
  });
});
