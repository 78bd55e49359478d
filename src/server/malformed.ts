// Requests Node's parser refuses before any handler runs (an unknown method, headers over the
// size limit, NUL bytes, an HTTP/2 preface, Transfer-Encoding beside Content-Length) and
// clients too slow to send their headers. Each still gets a problem+json answer with a
// stable code, written straight to the socket, and the connection is closed.
import type { Socket } from 'node:net';
import { LookupError, toProblem } from '../contract/errors';

/** The contract error for a parser or timeout error code of Node's HTTP server. */
export function clientErrorProblem(code: string | undefined): LookupError {
  switch (code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'ERR_HTTP_HEADERS_TIMEOUT':
      return new LookupError('request_timeout', 'The request was not received in time');
    case 'HPE_HEADER_OVERFLOW':
      return new LookupError(
        'request_header_too_large',
        'The request headers are larger than the server accepts',
      );
    case 'HPE_PAUSED_H2_UPGRADE':
      return new LookupError('bad_request', 'HTTP/2 is not served here; use HTTP/1.1');
    case 'HPE_INVALID_METHOD':
      return new LookupError('bad_request', 'The request method is not one HTTP defines');
    case 'HPE_INVALID_CONTENT_LENGTH':
    case 'HPE_INVALID_TRANSFER_ENCODING':
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return new LookupError(
        'bad_request',
        'The request framing is ambiguous (Transfer-Encoding with Content-Length)',
      );
    default:
      return new LookupError('bad_request', 'The request is not well-formed HTTP/1.1');
  }
}

const REASON: Record<number, string> = {
  400: 'Bad Request',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

/** The whole HTTP/1.1 response for a refused request, closing the connection. */
export function rawProblemResponse(err: LookupError, extraHeaders = ''): string {
  const body = JSON.stringify(toProblem(err));
  return (
    `HTTP/1.1 ${err.status} ${REASON[err.status] ?? 'Error'}\r\n` +
    'Connection: close\r\n' +
    extraHeaders +
    'Content-Type: application/problem+json\r\n' +
    'Cache-Control: no-store\r\n' +
    'X-Content-Type-Options: nosniff\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
}

/**
 * Answers a refused request on its socket, when that is still possible: not after a reset,
 * and not in the middle of a response already being written on it.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  const busy = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || socket.destroyed || busy?.headersSent) {
    socket.destroy();
    return;
  }
  socket.end(rawProblemResponse(clientErrorProblem(err.code)));
}

/** CONNECT (a proxy tunnel) is no method of this API: 405 on the socket, then closed. */
export function answerConnect(socket: Socket): void {
  if (!socket.writable || socket.destroyed) return void socket.destroy();
  const err = new LookupError('method_not_allowed', 'Only GET is supported');
  socket.end(rawProblemResponse(err, 'Allow: GET\r\n'));
}
