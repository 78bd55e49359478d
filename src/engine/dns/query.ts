// GET /query of the domain service (docs/contract.md): the asked record types of one name, in
// parallel, over a c-ares Resolver of our own (TCP fallback on truncation, retries) so the
// process-wide resolver settings, shared with other extensions, are never touched.
import { promises as dns } from 'node:dns';
import { isIP } from 'node:net';
import { LookupError, throwIfAborted } from '../../contract/errors';
import { normalizeHost, reverseName } from '../names';
import { printable } from '../../contract/errors';
import {
  RECORD_TYPES,
  type DnsRecord,
  type QueryResult,
  type RecordType,
  type TypeFailure,
} from '../../contract/shapes';
import type { QueryParams } from '../../contract/services';
import { lookupType, type TypeOutcome } from './records';
import { resolveServer, type ServerLookup } from './server';
import { DNS_TIMEOUT_MS, DNS_TRIES } from '../../contract/limits';

export interface DnsOptions {
  signal?: AbortSignal;
  /** per try, in milliseconds (default 2500) */
  timeoutMs?: number;
  /** tries per nameserver (default 2) */
  tries?: number;
  /** resolves a nameserver host name given as `server` (default: the system resolver) */
  lookup?: ServerLookup;
}

export const DEFAULT_TIMEOUT_MS = DNS_TIMEOUT_MS;
export const DEFAULT_TRIES = DNS_TRIES;

/** The record types of a request: case-insensitive, duplicates dropped, all ten when none. */
export function parseTypes(types: readonly string[] | undefined): RecordType[] {
  if (types === undefined || types.length === 0) return [...RECORD_TYPES];
  const out: RecordType[] = [];
  // A lone string from a loosely typed caller is one type, not a list of letters.
  for (const raw of typeof types === 'string' ? [types] : types) {
    const upper = typeof raw === 'string' ? raw.trim().toUpperCase() : '';
    const type = RECORD_TYPES.find((t) => t === upper);
    if (type === undefined) {
      throw new LookupError(
        'invalid_type',
        `"${printable(String(raw))}" is not one of ${RECORD_TYPES.join(', ')}`,
      );
    }
    if (!out.includes(type)) out.push(type);
  }
  return out;
}

/**
 * The name to ask. An IP address is asked at its reverse name (in-addr.arpa / ip6.arpa): PTR
 * is the point, and CNAME, NS and SOA there describe the reverse delegation.
 */
export function queryName(host: string): string {
  const text = typeof host === 'string' ? host.trim().replace(/^\[(.*)\]$/, '$1') : host;
  if (typeof text === 'string' && isIP(text) !== 0) return reverseName(text);
  return normalizeHost(text);
}

export async function query(params: QueryParams, options: DnsOptions = {}): Promise<QueryResult> {
  const { signal } = options;
  throwIfAborted(signal);
  const name = queryName(params.host);
  const types = parseTypes(params.types);
  const timeoutMs = positiveInt(options.timeoutMs, DEFAULT_TIMEOUT_MS, 'timeoutMs');
  const tries = positiveInt(options.tries, DEFAULT_TRIES, 'tries');
  // One bound for the whole call, the server name look-up included.
  const deadline = Date.now() + timeoutMs * tries;

  if (params.server !== undefined && typeof params.server !== 'string') {
    throw new LookupError('invalid_server', 'The nameserver must be given as text');
  }
  const server = params.server?.trim();
  const servers =
    server === undefined || server === ''
      ? undefined
      : await resolveServer(server, {
          signal,
          timeoutMs: timeoutMs * tries,
          lookup: options.lookup,
        });
  throwIfAborted(signal);

  const resolver = new dns.Resolver({ timeout: timeoutMs, tries });
  if (servers !== undefined) resolver.setServers(servers);
  const outcomes = await askAll(resolver, name, types, signal, deadline - Date.now());
  return assemble(types, outcomes);
}

function positiveInt(value: number | undefined, fallback: number, what: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) {
    throw new LookupError('invalid_argument', `${what} must be a positive whole number`);
  }
  return value;
}

/**
 * Asks every type at once. c-ares backs off between tries (the second waits twice as long), so
 * our own timer holds the call to timeoutMs × tries; cancelling the resolver ends what is left.
 */
function askAll(
  resolver: dns.Resolver,
  name: string,
  types: RecordType[],
  signal: AbortSignal | undefined,
  budgetMs: number,
): Promise<TypeOutcome[]> {
  return new Promise((resolve, reject) => {
    let expired = false;
    let settled = false;
    const finish = () => {
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      if (settled) return;
      finish();
      resolver.cancel();
      reject(new LookupError('cancelled', 'The request was cancelled', { cause: signal?.reason }));
    };
    const timer = setTimeout(
      () => {
        expired = true;
        resolver.cancel();
      },
      Math.max(1, budgetMs),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
    void Promise.all(types.map((type) => lookupType(resolver, name, type))).then((outcomes) => {
      if (settled) return;
      finish();
      resolve(
        outcomes.map((o): TypeOutcome =>
          o.kind === 'cancelled' && expired ? { kind: 'failed', code: 'upstream_timeout' } : o,
        ),
      );
    });
  });
}

function assemble(types: RecordType[], outcomes: TypeOutcome[]): QueryResult {
  const records: DnsRecord[] = [];
  const errors: TypeFailure[] = [];
  let nxdomain = false;
  outcomes.forEach((outcome, i) => {
    const type = types[i];
    if (outcome.kind === 'records') records.push(...outcome.records);
    else if (outcome.kind === 'nxdomain') nxdomain = true;
    else if (outcome.kind === 'failed') errors.push({ type, code: outcome.code });
    // 'cancelled' without the deadline means someone else cancelled the resolver; treat it as
    // a failure so the answer never claims a type is empty when it was not asked to the end.
    else if (outcome.kind === 'cancelled') errors.push({ type, code: 'upstream_error' });
  });
  if (errors.length === types.length) throw allFailed(errors);
  const result: QueryResult = {
    records,
    status: nxdomain && records.length === 0 ? 'NXDOMAIN' : 'NOERROR',
  };
  if (errors.length > 0) result.errors = errors;
  return result;
}

const FAILURE_TEXT: Record<TypeFailure['code'], string> = {
  upstream_timeout: 'did not answer in time',
  upstream_error: 'sent an unusable answer',
  servfail: 'answered SERVFAIL',
  refused: 'answered REFUSED',
  connection_refused: 'refused the connection',
};

/** What a failed `query` carries as its `cause`: the failure of every type asked. */
export interface AllTypesFailed {
  failures: TypeFailure[];
}

function allFailed(errors: TypeFailure[]): LookupError {
  const codes = [...new Set(errors.map((e) => e.code))];
  const detail = `The nameserver ${codes.map((c) => FAILURE_TEXT[c]).join(' or ')} for every type asked`;
  const cause: AllTypesFailed = { failures: errors };
  const code =
    codes.length === 1 && codes[0] === 'upstream_timeout' ? 'upstream_timeout' : 'upstream_error';
  return new LookupError(code, detail, { cause });
}
