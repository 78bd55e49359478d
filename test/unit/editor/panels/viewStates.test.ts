// The panel's view states: a failed look-up's designed error state, and a link preview whose
// page fetch failed keeping the URL's TLS section (the certificate often says why).
import assert from 'node:assert/strict';
import { LookupError } from '../../../../src/contract/errors';
import type { TlsResult } from '../../../../src/contract/shapes';
import type { PreviewView } from '../../../../src/protocol';
import { failedPreview, failedView, loadingBase } from '../../../../src/editor/panels/viewStates';

const expiredChain: TlsResult = {
  host: 'expired.test',
  port: 443,
  protocol: 'TLSv1.3',
  cipher: 'TLS_AES_256_GCM_SHA384',
  alpn: 'http/1.1',
  trusted: false,
  chain: [],
  problems: [
    { code: 'expired', severity: 'error', message: 'The certificate expired <b>2 days</b> ago' },
  ],
};

describe('panel view states', () => {
  it('maps a thrown error to its status, code and message over the loading state', () => {
    const loading: PreviewView = { kind: 'preview', ...loadingBase('https://example.com/') };
    const view = failedView(loading, new LookupError('not_found', 'no such domain'));
    assert.equal(view.status, 'not_found');
    assert.deepEqual(view.error, { code: 'not_found', message: 'no such domain' });
    assert.equal(view.target, 'https://example.com/');
    const limited = failedView(
      loading,
      new LookupError('rate_limited', 'slow down', { retryAfter: 30 }),
    );
    assert.equal(limited.status, 'rate_limited');
    assert.equal(limited.error?.retryAfter, 30);
    assert.equal(failedView(loading, new Error('boom')).status, 'error');
  });

  it('a preview whose fetch failed keeps the TLS result that says why', () => {
    const url = 'https://expired.test/';
    const err = new LookupError('upstream_error', 'certificate has expired');
    const view = failedPreview(url, err, expiredChain);
    assert.equal(view.kind, 'preview');
    assert.equal(view.status, 'error');
    assert.equal(view.error?.code, 'upstream_error');
    assert.equal(view.data, undefined);
    // Passed on as data: the webview draws each string with textContent, never as markup.
    assert.deepEqual(view.tls, expiredChain);
  });

  it('keeps a failed TLS look-up as its own error, and adds nothing for a non-https URL', () => {
    const err = new LookupError('upstream_timeout', 'no answer');
    const tlsError = { error: { code: 'upstream_timeout', message: 'no handshake' } };
    assert.deepEqual(failedPreview('https://slow.test/', err, tlsError).tls, tlsError);
    const plain = failedPreview('http://plain.test/', err, undefined);
    assert.equal('tls' in plain, false);
    assert.equal(plain.error?.code, 'upstream_timeout');
  });
});
