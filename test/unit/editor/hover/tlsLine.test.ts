// The TLS line of a host hover, and its cache: one TLS look-up per host and resolver for a few
// minutes, and a hover that does not wait past its budget for a host that never answers.
import * as assert from 'node:assert/strict';
import type { TlsResult } from '../../../../src/contract/shapes';
import type { Deps } from '../../../../src/editor/deps';
import { issuerName, TlsHoverCache, tlsHoverLine } from '../../../../src/editor/hover/tlsLine';
import { FIXED } from '../../../support/fake-services';

const result = (extra: Partial<TlsResult>): TlsResult => ({ ...FIXED.tls, ...extra });

describe('editor/hover TLS line', () => {
  it('names the issuing CA, the days left and the problem codes', () => {
    assert.equal(issuerName("C=US, O=Let's Encrypt, CN=R3"), 'R3');
    assert.equal(issuerName('O=Example Trust'), 'Example Trust');
    assert.equal(
      tlsHoverLine({ result: result({}) }),
      'TLS $(pass) Example Test CA · 30 days left',
    );
    const soon = result({
      problems: [{ code: 'expires_soon', severity: 'warning', message: 'x' }],
    });
    assert.equal(
      tlsHoverLine({ result: soon }),
      'TLS $(warning) Example Test CA · 30 days left · expires_soon',
    );
    const bad = result({
      trusted: false,
      chain: [{ ...FIXED.tls.chain[0], days_left: -3 }],
      problems: [{ code: 'expired', severity: 'error', message: 'x' }],
    });
    assert.equal(
      tlsHoverLine({ result: bad }),
      'TLS $(error) Example Test CA · expired 3 days ago · expired',
    );
    assert.equal(
      tlsHoverLine({ error: 'upstream_timeout' }),
      'TLS $(circle-slash) no answer on 443 (upstream_timeout)',
    );
  });

  it('asks once per host and resolver, and gives up at the budget without the answer', async () => {
    let calls = 0;
    let answer: (r: TlsResult) => void = () => undefined;
    const deps = {
      services: () => ({
        domain: {
          tls: () => {
            calls++;
            return new Promise<TlsResult>((resolve) => (answer = resolve));
          },
        },
      }),
    } as unknown as Deps;
    const cache = new TlsHoverCache();
    const controller = new AbortController();
    const first = cache.get(deps, 'a.test', undefined, controller.signal);
    controller.abort(); // the hover went away before the handshake ended
    assert.equal(await first, undefined);
    answer(result({}));
    const second = await cache.get(deps, 'a.test', undefined, new AbortController().signal);
    assert.ok(second && 'result' in second && second.result.trusted);
    assert.equal(calls, 1);
    // another resolver is another question (its hover gone at once)
    assert.equal(await cache.get(deps, 'a.test', '192.0.2.53', controller.signal), undefined);
    assert.equal(calls, 2);
  });
});
