// GET /query of the domain service (docs/contract.md): the asked record types of one name, in
// parallel, through the engine's own transport (transport.ts: EDNS0 over UDP, TCP on
// truncation with one connection per look-up, or DoT/DoH), with tries and one deadline.
import { isIP } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
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
import { createAddressGuard } from '../guard';
import { askTypes, type AskPlan } from './ask';
import { textToLabels } from './names';
import type { TypeOutcome } from './records';
import { nameServers, systemNameServers, type ServerLookup } from './server';
import type { NameServer, Session } from './transport';
import { DNS_TIMEOUT_MS, DNS_TRIES } from '../../contract/limits';

export interface DnsOptions {
  signal?: AbortSignal;
  /** per try, in milliseconds (default DNS_TIMEOUT_MS of contract/limits.ts) */
  timeoutMs?: number;
  /** tries per nameserver (default 2) */
  tries?: number;
  /** resolves a nameserver host name given as `server` (default: the system resolver) */
  lookup?: ServerLookup;
  /** server mode: a `server` at a private, loopback, link-local... address is blocked_target */
  blockPrivate?: boolean;
  /** with blockPrivate: ranges the operator does want reachable (CIDR strings) */
  allowCidrs?: readonly string[];
  /** DoT and DoH: trust these CAs instead of the system's */
  ca?: ConnectionOptions['ca'];
  /** the nameservers of `server`, already resolved (a look-up of many questions does it once) */
  servers?: () => Promise<NameServer[]>;
  /** sockets shared with the other questions of one operation (lookup.ts) */
  session?: Session;
}

export const DEFAULT_TIMEOUT_MS = DNS_TIMEOUT_MS;
export const DEFAULT_TRIES = DNS_TRIES;

/** The record types of a request: case-insensitive, duplicates dropped, all ten when none. */
export function parseTypes(types: readonly string[] | undefined): RecordType[] {
  if (types === undefined || types.length === 0) return [...RECORD_TYPES];
  const out: RecordType[] = [];
  // A lone string from a loosely typed caller is one type, not a list of letters; a comma
  // list (types=MX,TXT, --types MX,TXT) is the types it lists.
  const given = typeof types === 'string' ? [types] : types;
  for (const raw of given.flatMap((t) => (typeof t === 'string' ? t.split(',') : [t]))) {
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
  const servers = await (options.servers?.() ??
    serversFor(params.server, options, timeoutMs * tries));
  throwIfAborted(signal);
  const labels = textToLabels(name);
  const plan: AskPlan = { servers, timeoutMs, tries, deadline, options };
  const outcomes = await askTypes(labels, types, plan, options.session);
  return assemble(types, outcomes, { server: params.server, waitedMs: timeoutMs * tries });
}

/** The nameservers to ask: the `server` parameter's, or the system's resolvers. */
export async function serversFor(
  server: unknown,
  options: DnsOptions,
  budgetMs: number,
): Promise<NameServer[]> {
  if (server !== undefined && typeof server !== 'string') {
    throw new LookupError('invalid_server', 'The nameserver must be given as text');
  }
  const text = server?.trim();
  if (text === undefined || text === '') return systemNameServers();
  return nameServers(text, {
    signal: options.signal,
    timeoutMs: budgetMs,
    lookup: options.lookup,
    guard: options.blockPrivate === true ? createAddressGuard(options.allowCidrs) : undefined,
  });
}

function positiveInt(value: number | undefined, fallback: number, what: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) {
    throw new LookupError('invalid_argument', `${what} must be a positive whole number`);
  }
  return value;
}

function assemble(
  types: RecordType[],
  outcomes: TypeOutcome[],
  asked: { server: unknown; waitedMs: number },
): QueryResult {
  const records: DnsRecord[] = [];
  const errors: TypeFailure[] = [];
  const reasons = new Set<string | undefined>();
  const chain = new CnameChain();
  let nxdomain = false;
  outcomes.forEach((outcome, i) => {
    const type = types[i];
    if ('chain' in outcome) chain.add(outcome.chain);
    if (outcome.kind === 'records') records.push(...outcome.records);
    else if (outcome.kind === 'nxdomain') nxdomain = true;
    else if (outcome.kind === 'failed') {
      errors.push({ type, code: outcome.code });
      reasons.add(outcome.reason);
    }
    // 'cancelled' without the deadline means someone else cancelled the resolver; treat it as
    // a failure so the answer never claims a type is empty when it was not asked to the end.
    else if (outcome.kind === 'cancelled') errors.push({ type, code: 'upstream_error' });
  });
  if (errors.length === types.length) {
    const [reason] = reasons;
    throw everyTypeFailed(errors, { ...asked, reason: reasons.size === 1 ? reason : undefined });
  }
  const result: QueryResult = {
    records,
    status: nxdomain && records.length === 0 ? 'NXDOMAIN' : 'NOERROR',
  };
  if (errors.length > 0) result.errors = errors;
  if (chain.links.length > 0) result.chain = chain.links;
  return result;
}

/** The CNAMEs the asked types followed, once each, in the order followed. */
export class CnameChain {
  readonly links: DnsRecord[] = [];
  private readonly seen = new Set<string>();

  add(links: readonly DnsRecord[] | undefined): void {
    for (const link of links ?? []) {
      const key = `${link.name ?? ''} ${link.value ?? ''}`.toLowerCase();
      if (this.seen.has(key)) continue;
      this.seen.add(key);
      this.links.push(link);
    }
  }
}

/** What the nameserver did, after its name: "127.0.0.1:53 did not answer in 5 s". */
const FAILURE_TEXT: Record<TypeFailure['code'], (waited: string) => string> = {
  upstream_timeout: (waited) => `did not answer in ${waited}`,
  upstream_error: () => 'sent an unusable answer',
  servfail: () => 'answered SERVFAIL',
  refused: () => 'answered REFUSED',
  connection_refused: () => 'refused the connection',
};

/** What a failed `query` carries as its `cause`: the failure of every type asked. */
export interface AllTypesFailed {
  failures: TypeFailure[];
}

/**
 * The error of a look-up that got no type answered, in one sentence: the nameserver as the
 * caller named it (the system's are not named: their addresses are internal), what it did,
 * and for how long it was waited for. `reason` is added only where it says more (a
 * certificate that did not verify).
 */
export function everyTypeFailed(
  errors: TypeFailure[],
  asked: { server: unknown; waitedMs: number; reason?: string },
): LookupError {
  const codes = [...new Set(errors.map((e) => e.code))];
  const named = typeof asked.server === 'string' ? printable(asked.server.trim()) : '';
  const who = named === '' ? "The system's nameservers" : named;
  const waited = `${Math.round(asked.waitedMs / 100) / 10} s`;
  const did = codes.map((c) => FAILURE_TEXT[c](waited)).join(' or ');
  const answered = codes.some((c) => c === 'servfail' || c === 'refused');
  const every = answered && errors.length > 1 ? ' for every type asked' : '';
  const why =
    asked.reason !== undefined && codes.includes('upstream_error') ? ` (${asked.reason})` : '';
  const cause: AllTypesFailed = { failures: errors };
  const code =
    codes.length === 1 && codes[0] === 'upstream_timeout' ? 'upstream_timeout' : 'upstream_error';
  return new LookupError(code, `${who} ${did}${every}${why}`, { cause });
}
