import assert from 'node:assert/strict';
import type { DnssecResult } from '../../../../src/contract/shapes';
import { dnssecWarnings } from '../../../../src/editor/views/nodes/dnssecFacts';

const NOW = Date.parse('2026-11-23T10:00:00Z');
const window = (expiration: string) => ({
  key_tag: 1,
  algorithm: 13,
  inception: '2026-11-01T00:00:00Z',
  expiration,
});

function result(overrides: Partial<DnssecResult> = {}): DnssecResult {
  return {
    status: 'secure',
    reason: 'signed',
    chain: [
      {
        zone: 'example.',
        ds: [{ key_tag: 1, algorithm: 13, digest_type: 2, digest: 'AB' }],
        dnskey: [{ key_tag: 1, algorithm: 13, flags: 257, bits: 256 }],
        rrsig: window('2026-12-30T00:00:00Z'),
      },
    ],
    ...overrides,
  };
}

describe('editor/views/nodes/dnssecFacts', () => {
  it('has nothing to say about a healthy chain', () => {
    assert.deepEqual(dnssecWarnings(result(), NOW), []);
  });

  it('warns of signatures expiring within 7 days, not of later or past ones', () => {
    const r = result({
      signatures: [
        { name: 'www.example.', type: 'A', signer: 'example.', ...window('2026-11-25T00:00:00Z') },
        { name: 'mx.example.', type: 'A', signer: 'example.', ...window('2026-12-25T00:00:00Z') },
        { name: 'old.example.', type: 'A', signer: 'example.', ...window('2026-11-20T00:00:00Z') },
      ],
    });
    assert.deepEqual(dnssecWarnings(r, NOW), [
      'The signature over the www.example. A expires 2026-11-25T00:00:00Z',
    ]);
  });

  it('warns of a DS without its DNSKEY and of deprecated algorithms', () => {
    const r = result({
      chain: [
        {
          zone: 'example.',
          ds: [{ key_tag: 9, algorithm: 5, digest_type: 2, digest: 'AB' }],
          dnskey: [{ key_tag: 1, algorithm: 5, flags: 257, bits: 2048 }],
        },
        { zone: 'unsigned.example.', ds: [], dnskey: [] },
      ],
    });
    assert.deepEqual(dnssecWarnings(r, NOW), [
      'example.: the DS for key 9 has no matching DNSKEY',
      'Algorithm 5 (RSASHA1) is deprecated',
    ]);
  });
});
