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

export function formatLog(event: LogEvent, format: LogFormat, now?: Date): string {
  const time = now === undefined ? isoNow() : now.toISOString();
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

// The time of the last line, reused by the lines of the same millisecond.
let lastMs = Number.NaN;
let lastIso = '';

function isoNow(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}

/** Every parameter an operation takes: only their values are worth logging. */
const KNOWN_PARAMS = new Set(OPERATIONS.flatMap((op) => op.params.map((p) => p.name)));

/**
 * The request target as the access log shows it: a parameter no operation takes keeps its name
 * but not its value (`?token=`, `?access_token=`, `?key=` whatever a client calls it), and any
 * value holding one of the service's tokens, raw or percent-encoded, is hidden too.
 */
export function loggedTarget(target: string, tokens: readonly string[]): string {
  return loggableAsIs(target, tokens) ? target : targetByParts(target, tokens);
}

function holdsToken(text: string, tokens: readonly string[]): boolean {
  return tokens.some((t) => t !== '' && text.includes(t));
}

/**
 * Whether targetByParts would leave the target as it is: no token in the whole of it, raw or
 * decoded, and only parameters an operation takes. A token in any part of the target is in the
 * whole, and decoding the whole decodes each part alike (an escape never spans the `?`, `&` and
 * `=` between parts; when any escape is malformed the parts are looked at one by one), so the
 * common request is logged after two scans and no copies.
 */
function loggableAsIs(target: string, tokens: readonly string[]): boolean {
  let plain = target;
  if (target.includes('%') || target.includes('+')) {
    try {
      plain = decodeURIComponent(target.replace(/\+/g, ' '));
    } catch {
      return false;
    }
  }
  if (holdsToken(target, tokens) || (plain !== target && holdsToken(plain, tokens))) return false;
  const q = target.indexOf('?');
  if (q < 0) return true;
  for (let at = q + 1; at <= target.length;) {
    let end = target.indexOf('&', at);
    if (end < 0) end = target.length;
    const eq = target.indexOf('=', at);
    // A name spelt with escapes is not one of ours as written: the parts decide.
    if (!KNOWN_PARAMS.has(target.slice(at, eq >= 0 && eq < end ? eq : end))) return false;
    at = end + 1;
  }
  return true;
}

/** loggedTarget part by part: the path, then each parameter's name and value. */
export function targetByParts(target: string, tokens: readonly string[]): string {
  const q = target.indexOf('?');
  const path = q < 0 ? target : target.slice(0, q);
  // Raw and decoded: a token may arrive percent-encoded.
  const hide = (raw: string, plain: string): boolean =>
    holdsToken(raw, tokens) || (plain !== raw && holdsToken(plain, tokens));
  if (hide(path, decoded(path))) return '[hidden]';
  if (q < 0) return path;
  const pairs = target
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      const value = eq < 0 ? '' : pair.slice(eq + 1);
      const plainName = decoded(name);
      if (hide(name, plainName)) return '[hidden]';
      if (!KNOWN_PARAMS.has(plainName) || hide(value, decoded(value))) {
        return `${name}=[hidden]`;
      }
      return pair;
    });
  return `${path}?${pairs.join('&')}`;
}

/** The text with its percent-escapes (and `+` as space) decoded; as it is when it has none. */
function decoded(text: string): string {
  if (!text.includes('%') && !text.includes('+')) return text;
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
 *
 * Lines written in one turn of the event loop go out in one write at its end (stdout to a file
 * is a synchronous write: one system call per request was a tenth of a cached answer's cost);
 * whatever is still held when the process exits is written then, so no line is lost.
 */
export function streamLines(stream: NodeJS.WritableStream): (line: string) => void {
  let broken = false;
  let held = '';
  stream.on('error', () => {
    broken = true;
  });
  const flush = () => {
    const text = held;
    held = '';
    if (broken || text === '') return;
    try {
      stream.write(text);
    } catch {
      broken = true;
    }
  };
  process.once('exit', flush);
  return (line) => {
    if (broken) return;
    if (held === '') setImmediate(flush);
    held += `${line}\n`;
  };
}
