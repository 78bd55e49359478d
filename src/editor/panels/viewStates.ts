// The panel's view states as a look-up moves through them: loading, then the designed error
// state of one that threw (its code, message and status over the loading state). No vscode
// here, so unit tests build them as the panel does.
import { toLookupError } from '../../contract/errors';
import type { PreviewView, ViewState, ViewStatus } from '../../protocol';

/** A loading state's common fields. */
export function loadingBase(target: string): {
  seq: number;
  status: 'loading';
  target: string;
  at: number;
} {
  return { seq: 0, status: 'loading', target, at: Date.now() };
}

export function failedView<V extends ViewState>(loading: V, err: unknown): V {
  const error = toLookupError(err);
  return {
    ...loading,
    status: statusOf(error.code),
    at: Date.now(),
    error: {
      code: error.code,
      message: error.detail,
      ...(error.retryAfter !== undefined ? { retryAfter: error.retryAfter } : {}),
    },
  };
}

function statusOf(code: string): ViewStatus {
  if (code === 'not_found') return 'not_found';
  if (code === 'rate_limited') return 'rate_limited';
  return 'error';
}

/**
 * A link preview whose page fetch failed. A bad certificate is the commonest reason an https
 * page cannot be fetched, so the URL's TLS look-up (when there was one) stays in the view and
 * says why: expired, name_mismatch, untrusted…
 */
export function failedPreview(
  url: string,
  err: unknown,
  tls: PreviewView['tls'] | undefined,
): PreviewView {
  const view = failedView<PreviewView>({ kind: 'preview', ...loadingBase(url) }, err);
  return tls ? { ...view, tls } : view;
}
