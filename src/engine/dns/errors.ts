// How one try at one nameserver failed, in the per-type terms of the contract (TypeFailure),
// carried on a LookupError so callers that only know LookupError still get a stable code.
import { LookupError } from '../../contract/errors';
import type { TypeFailure } from '../../contract/shapes';

export type TryFailure = Extract<
  TypeFailure['code'],
  'upstream_timeout' | 'upstream_error' | 'connection_refused'
>;

export class ExchangeError extends LookupError {
  readonly failure: TryFailure;

  constructor(failure: TryFailure, detail: string, options: { cause?: unknown } = {}) {
    super(failure === 'upstream_timeout' ? 'upstream_timeout' : 'upstream_error', detail, options);
    this.failure = failure;
  }
}

const UNREACHABLE_CODES = new Set(['ENETUNREACH', 'EHOSTUNREACH', 'EADDRNOTAVAIL', 'EAFNOSUPPORT']);
const CERTIFICATE_CODES = /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|ERR_TLS|ERR_SSL|HOSTNAME/;

/** A socket or TLS error as a try failure; no internal address goes into the message. */
export function failureOf(err: unknown, encrypted: boolean): ExchangeError {
  if (err instanceof ExchangeError) return err;
  const raw = (err as { code?: unknown } | null)?.code;
  const code = typeof raw === 'string' ? raw : '';
  if (code === 'ECONNREFUSED') {
    return new ExchangeError('connection_refused', 'The nameserver refused the connection', {
      cause: err,
    });
  }
  if (code === 'ETIMEDOUT') {
    return new ExchangeError('upstream_timeout', 'The nameserver did not answer in time', {
      cause: err,
    });
  }
  if (UNREACHABLE_CODES.has(code)) {
    return new ExchangeError('upstream_error', 'There is no route to the nameserver', {
      cause: err,
    });
  }
  if (encrypted && CERTIFICATE_CODES.test(code)) {
    return new ExchangeError(
      'upstream_error',
      "The nameserver's certificate could not be verified",
      { cause: err },
    );
  }
  return new ExchangeError('upstream_error', 'The connection to the nameserver failed', {
    cause: err,
  });
}

/** Thrown for a message that does not parse; the caller fails that try at once. */
export class MalformedMessage extends LookupError {
  constructor(readonly why: string) {
    super('upstream_error', `The nameserver sent a malformed answer (${why})`);
  }
}
