// `hostlens query` as text: what the JSON says must be in the text too (the DNSSEC verdict
// with --dnssec, the owners of records reached through CNAMEs).
import * as assert from 'node:assert/strict';
import type { QueryResult } from '../../../src/contract/shapes';
import { renderText } from '../../../src/cli/text/index';
import { makeGlyphs, makeStyle } from '../../../src/cli/text/style';

function text(result: QueryResult, host: string): string {
  return renderText('query', result, {
    style: makeStyle(false),
    glyphs: makeGlyphs(false),
    now: new Date('2026-11-01T00:00:00Z'),
    width: Infinity,
    params: { host },
  });
}

describe('hostlens query as text', () => {
  const records: QueryResult['records'] = [{ type: 'A', value: '192.0.2.1', ttl: 60 }];

  it('prints the DNSSEC verdict and its reason under the status', () => {
    const out = text(
      {
        records,
        status: 'NOERROR',
        dnssec: {
          status: 'secure',
          reason: 'every answer validates from the root trust anchor',
          chain: [
            { zone: '.', ds: [], dnskey: [] },
            { zone: 'test.', ds: [], dnskey: [] },
            { zone: 'signed.test.', ds: [], dnskey: [] },
          ],
        },
      },
      'signed.test',
    );
    assert.match(out, /^;; DNSSEC: secure \(every answer validates from the root trust anchor\)$/m);
    assert.match(out, /^;; chain of trust: \. > test\. > signed\.test\.$/m);
  });

  it('says bogus and indeterminate answers in words too', () => {
    for (const status of ['bogus', 'indeterminate', 'insecure'] as const) {
      const out = text(
        { records, status: 'NOERROR', dnssec: { status, reason: `why ${status}`, chain: [] } },
        'x.test',
      );
      assert.match(out, new RegExp(`^;; DNSSEC: ${status} \\(why ${status}\\)$`, 'm'));
    }
  });

  it('prints no DNSSEC line when the query did not ask for it', () => {
    assert.doesNotMatch(text({ records, status: 'NOERROR' }, 'x.test'), /DNSSEC/);
  });
});
