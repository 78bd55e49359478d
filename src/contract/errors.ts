// One error type for every failure the engine, the services and the server report.
// Callers branch on `code` (stable, snake_case, from docs/contract.md), never on the message.

export const ERROR_STATUS = {
  unauthorized: 401,
  invalid_host: 400,
  invalid_type: 400,
  invalid_server: 400,
  invalid_url: 400,
  invalid_argument: 400,
  not_found: 404,
  blocked_target: 403,
  rate_limited: 429,
  upstream_timeout: 504,
  upstream_error: 502,
  response_too_large: 502,
  cancelled: 499,
  internal_error: 500,
  // The server's own answers to requests it cannot take (additive):
  bad_request: 400,
  method_not_allowed: 405,
  request_timeout: 408,
  request_header_too_large: 431,
  overloaded: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const ERROR_TITLES: Record<ErrorCode, string> = {
  unauthorized: 'Missing or invalid API token',
  invalid_host: 'Invalid hostname',
  invalid_type: 'Invalid record type',
  invalid_server: 'Invalid nameserver',
  invalid_url: 'Invalid URL',
  invalid_argument: 'Invalid argument',
  not_found: 'Not found',
  blocked_target: 'Target address not allowed',
  rate_limited: 'Rate limited',
  upstream_timeout: 'Upstream timed out',
  upstream_error: 'Upstream error',
  response_too_large: 'Response too large',
  cancelled: 'Cancelled',
  internal_error: 'Internal error',
  bad_request: 'Malformed HTTP request',
  method_not_allowed: 'Method not allowed',
  request_timeout: 'Request not received in time',
  request_header_too_large: 'Request headers too large',
  overloaded: 'Server overloaded or shutting down',
};

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(ERROR_STATUS, value);
}

export class LookupError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly detail: string;
  /** Seconds the caller should wait before retrying (rate_limited, overloaded). */
  readonly retryAfter: number | undefined;

  constructor(
    code: ErrorCode,
    detail: string,
    options: { cause?: unknown; retryAfter?: number } = {},
  ) {
    super(detail, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'LookupError';
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.detail = detail;
    this.retryAfter = options.retryAfter;
  }
}

/** Turns anything thrown into a LookupError without leaking internals into `detail`. */
export function toLookupError(err: unknown): LookupError {
  if (err instanceof LookupError) return err;
  if (err instanceof Error && err.name === 'AbortError') {
    return new LookupError('cancelled', 'The request was cancelled', { cause: err });
  }
  return new LookupError('internal_error', 'An unexpected error occurred', { cause: err });
}

/** Throws `cancelled` when the signal has fired; call between awaited steps. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) {
    throw new LookupError('cancelled', 'The request was cancelled', { cause: signal.reason });
  }
}

/** RFC 9457 problem details, as every backend reports errors. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
}

export function toProblem(err: LookupError): Problem {
  return {
    type: `https://hostlens.dev/problems/${err.code}`,
    title: ERROR_TITLES[err.code],
    status: err.status,
    detail: err.detail,
    code: err.code,
  };
}

/** Rebuilds the typed error from a problem body (HTTP client, CLI consumers). */
export function fromProblem(problem: Partial<Problem>, httpStatus: number): LookupError {
  const code: ErrorCode = isErrorCode(problem.code) ? problem.code : codeForStatus(httpStatus);
  const detail =
    typeof problem.detail === 'string' && problem.detail !== ''
      ? problem.detail
      : `The service answered HTTP ${httpStatus}`;
  return new LookupError(code, detail);
}

function codeForStatus(status: number): ErrorCode {
  if (status === 401 || status === 403) return status === 401 ? 'unauthorized' : 'blocked_target';
  if (status === 404) return 'not_found';
  if (status === 429) return 'rate_limited';
  if (status === 504) return 'upstream_timeout';
  if (status === 400) return 'invalid_argument';
  return 'upstream_error';
}

/** A short, single-line, printable excerpt of user input for error messages. */
export function printable(value: string, max = 80): string {
  const clean = String(value).replace(/[\u0000-\u001f\u007f]/g, '?');
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}
