// Server log lines: one event per request or state change, written as the classic text line or
// as one JSON object per line (`--log-format json`). Events carry no token: the access event
// is built from the method, path, status and time only.
import { printable } from '../contract/errors';
import { OPERATIONS } from '../contract/operations';

export type LogFormat = 'text' | 'json';

export interface AccessEvent {
  kind: 'access';
  remote: string;
  method: string;
  path: string;
  /** the status sent, or `aborted` when the client left first */
  status: string;
  ms: number;
}

/** A connection dropped or refused before a request could be read (a malformed request). */
export interface ClientErrorEvent {
  kind: 'client_error';
  remote: string;
  reason: string;
}

/** Something an operator should know about: a failure, a change of state. */
export interface NoticeEvent {
  kind: 'notice';
  level: 'info' | 'warn' | 'error';
  msg: string;
}

export type LogEvent = AccessEvent | ClientErrorEvent | NoticeEvent;

export function formatLog(event: LogEvent, format: LogFormat, now = new Date()): string {
  const time = now.toISOString();
  if (format === 'json') return JSON.stringify({ time, ...event });
  switch (event.kind) {
    case 'access':
      return `${time} ${event.remote} ${printable(event.method, 10)} ${printable(event.path, 512)} ${event.status} ${event.ms.toFixed(1)}ms`;
    case 'client_error':
      return `${time} ${event.remote} - - ${printable(event.reason, 40)}`;
    case 'notice':
      // Notices keep the historic "error …" prefix for failures, which log filters match on.
      return event.level === 'error' ? `error ${event.msg}` : `${event.level} ${event.msg}`;
  }
}

/** Every parameter an operation takes: only their values are worth logging. */
const KNOWN_PARAMS = new Set(OPERATIONS.flatMap((op) => op.params.map((p) => p.name)));

/**
 * The request target as the access log shows it: a parameter no operation takes keeps its name
 * but not its value (`?token=`, `?access_token=`, `?key=` whatever a client calls it), and any
 * value holding one of the service's tokens, raw or percent-encoded, is hidden too.
 */
export function loggedTarget(target: string, tokens: readonly string[]): string {
  const q = target.indexOf('?');
  const path = q < 0 ? target : target.slice(0, q);
  const hide = (text: string): boolean => tokens.some((t) => t !== '' && text.includes(t));
  if (hide(path) || hide(decoded(path))) return '[hidden]';
  if (q < 0) return path;
  const pairs = target
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      const value = eq < 0 ? '' : pair.slice(eq + 1);
      if (hide(name) || hide(decoded(name))) return '[hidden]';
      if (!KNOWN_PARAMS.has(decoded(name)) || hide(value) || hide(decoded(value))) {
        return `${name}=[hidden]`;
      }
      return pair;
    });
  return `${path}?${pairs.join('&')}`;
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/**
 * A line writer for a stream whose reader may go away (`hostlens serve | head -1`, a log
 * shipper restarting): a write error such as EPIPE stops further writes instead of throwing
 * from an 'error' event nobody handles, so losing the log never stops the server.
 */
export function streamLines(stream: NodeJS.WritableStream): (line: string) => void {
  let broken = false;
  stream.on('error', () => {
    broken = true;
  });
  return (line) => {
    if (broken) return;
    try {
      stream.write(`${line}\n`);
    } catch {
      broken = true;
    }
  };
}
