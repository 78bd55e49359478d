// Writing answers: JSON exactly as JSON.stringify gives it (byte-for-byte the engine's JSON),
// and errors as RFC 9457 problem details built only from a LookupError's code and detail, so
// no stack trace or internal address can reach a body.
import type { ServerResponse } from 'node:http';
import { toProblem, type LookupError } from '../contract/errors';

const COMMON_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

export function send(
  res: ServerResponse,
  status: number,
  contentType: string,
  body: string,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, {
    ...COMMON_HEADERS,
    ...headers,
    'content-type': contentType,
    'content-length': Buffer.byteLength(body, 'utf8'),
  });
  res.end(body);
}

/** Sends the result and returns the JSON text it sent. */
export function sendJson(res: ServerResponse, result: unknown): string {
  const json = JSON.stringify(result);
  sendJsonText(res, json);
  return json;
}

/** Sends JSON text already made (a cached answer) as it is. */
export function sendJsonText(res: ServerResponse, json: string): void {
  send(res, 200, 'application/json; charset=utf-8', json);
}

/**
 * `status` overrides the code's own status where HTTP needs a different one (405); the body's
 * `status` always matches the status line.
 */
export function sendProblem(
  res: ServerResponse,
  err: LookupError,
  options: { status?: number; headers?: Record<string, string> } = {},
): void {
  const extra = { ...options.headers };
  if (err.retryAfter !== undefined) extra['retry-after'] = String(err.retryAfter);
  if (err.code === 'unauthorized') extra['www-authenticate'] = 'Bearer realm="hostlens"';
  const problem = toProblem(err);
  if (options.status !== undefined) problem.status = options.status;
  send(res, problem.status, 'application/problem+json', JSON.stringify(problem), extra);
}
