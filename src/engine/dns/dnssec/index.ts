// GET /query with dnssec=true: every asked type validated from the trust anchor down, the
// records taken from the same answers (asked with CD, so a validating upstream resolver still
// hands over bogus data), one verdict for the lot: the worst of the types'.
import { promises as dns } from 'node:dns';
import { LookupError, throwIfAborted } from '../../../contract/errors';
import type { DnsRecord, DnssecResult, QueryResult, TypeFailure } from '../../../contract/shapes';
import type { QueryParams } from '../../../contract/services';
import {
  CnameChain,
  everyTypeFailed,
  parseTypes,
  queryName,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_TRIES,
  type DnsOptions,
} from '../query';
import { parseServer, resolveServer } from '../../dns/server';
import { loadTrustAnchors } from './anchors';
import { algorithmName, DEPRECATED_ALGORITHMS } from './crypto';
import { pick, validateQuestion, type Verdict } from './answer';
import { Resolver, type ChainLink } from './chain';
import { createExchange, type Exchange, type Nameserver } from './exchange';
import { contractRecords } from './records';

export interface DnssecOptions extends DnsOptions {
  /** the network, replaceable (the shared transport, a test's counting wrapper) */
  exchange?: Exchange;
  /** the clock for signature windows, in epoch milliseconds */
  now?: () => number;
  /** where HOSTLENS_TRUST_ANCHORS is read from */
  env?: NodeJS.ProcessEnv;
}

/** `dnssec` as the query string, the CLI or a typed caller gives it. */
export function wantsDnssec(value: unknown): boolean {
  if (value === undefined || value === null || value === false) return false;
  if (value === true) return true;
  const text = typeof value === 'string' ? value.trim().toLowerCase() : 'not a switch';
  if (text === 'true' || text === '1' || text === 'yes') return true;
  if (text === 'false' || text === '0' || text === 'no' || text === '') return false;
  throw new LookupError('invalid_argument', 'dnssec must be true or false');
}

export async function queryWithDnssec(
  params: QueryParams,
  options: DnssecOptions = {},
): Promise<QueryResult> {
  const { signal } = options;
  throwIfAborted(signal);
  const name = queryName(params.host);
  const types = parseTypes(params.types);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const tries = options.tries ?? DEFAULT_TRIES;
  const server = await nameserver(params.server, options, timeoutMs * tries);
  const anchors = loadTrustAnchors(options.env);
  const now = options.now ?? Date.now;
  const exchange = options.exchange ?? createExchange({ timeoutMs, tries });
  const resolver = new Resolver(exchange, server, anchors.ok ? anchors.anchors : [], now, signal);

  const verdicts = await Promise.all(types.map((t) => validateQuestion(resolver, name, t)));
  throwIfAborted(signal);

  const records: DnsRecord[] = [];
  const errors: TypeFailure[] = [];
  const chain = new CnameChain();
  const asked = absolute(name);
  let nxdomain = false;
  verdicts.forEach((v, i) => {
    const type = types[i];
    const failure = failureOf(v);
    if (failure !== undefined) errors.push({ type, code: failure });
    if (v.rcode === 'NXDOMAIN') nxdomain = true;
    for (const set of v.answers) {
      // As a plain look-up says it: records of another owner name it; each CNAME followed is
      // a link of the chain, with its owner.
      if (set.type === type) {
        const owner = absolute(set.name) === asked ? {} : { name: set.name };
        records.push(...contractRecords(type, set).map((r) => ({ ...owner, ...r })));
      } else if (set.type === 'CNAME') {
        chain.add(contractRecords('CNAME', set).map((r) => ({ name: set.name, ...r })));
      }
    }
  });
  if (errors.length === types.length) {
    throw everyTypeFailed(errors, { server: params.server, waitedMs: timeoutMs * tries });
  }
  const result: QueryResult = {
    records,
    status: nxdomain && records.length === 0 ? 'NXDOMAIN' : 'NOERROR',
  };
  if (errors.length > 0) result.errors = errors;
  if (chain.links.length > 0) result.chain = chain.links;
  result.dnssec = anchors.ok
    ? combine(types, verdicts)
    : { status: 'indeterminate', reason: anchors.reason, chain: [] };
  return result;
}

function absolute(name: string): string {
  return name.toLowerCase().replace(/\.?$/, '.');
}

async function nameserver(
  server: string | undefined,
  options: DnsOptions,
  budgetMs: number,
): Promise<Nameserver> {
  if (server !== undefined && typeof server !== 'string') {
    throw new LookupError('invalid_server', 'The nameserver must be given as text');
  }
  const entries =
    server === undefined || server.trim() === ''
      ? new dns.Resolver().getServers()
      : await resolveServer(server.trim(), {
          signal: options.signal,
          timeoutMs: budgetMs,
          lookup: options.lookup,
        });
  const first = entries[0];
  if (first === undefined) throw new LookupError('upstream_error', 'No nameserver is configured');
  const parsed = parseServer(first);
  return { address: parsed.address, port: parsed.port };
}

function failureOf(v: Verdict): TypeFailure['code'] | undefined {
  if (v.failed !== undefined) {
    return v.failed.error.code === 'upstream_timeout' ? 'upstream_timeout' : 'upstream_error';
  }
  if (v.rcode === 'SERVFAIL') return 'servfail';
  if (v.rcode === 'REFUSED') return 'refused';
  if (v.rcode !== undefined && v.rcode !== 'NOERROR' && v.rcode !== 'NXDOMAIN')
    return 'upstream_error';
  return undefined;
}

/** Deprecated algorithms among the keys that vouched and the signatures that validated. */
function deprecatedIn(
  chain: readonly ChainLink[],
  signatures: readonly { algorithm: number }[],
): number[] {
  const used = [
    ...chain.flatMap((l) => (l.rrsig !== undefined ? [l.rrsig.algorithm] : [])),
    ...signatures.map((s) => s.algorithm),
  ];
  return [...new Set(used.filter((a) => DEPRECATED_ALGORITHMS.has(a)))];
}

function combine(types: readonly string[], verdicts: readonly Verdict[]): DnssecResult {
  let worst: (Verdict & { type: string }) | undefined;
  verdicts.forEach((v, i) => (worst = pick(worst, { ...v, type: types[i] })));
  const chain: ChainLink[] = [];
  for (const v of verdicts)
    for (const link of v.chain) if (!chain.some((l) => l.zone === link.zone)) chain.push(link);
  const signatures = verdicts.flatMap((v) => v.signatures);
  const w = worst!;
  let reason = types.length > 1 ? `${w.type}: ${w.reason}` : w.reason;
  const old = deprecatedIn(chain, signatures);
  if (w.status === 'secure' && old.length > 0) {
    reason += `; uses the deprecated ${old.map(algorithmName).join(', ')}`;
  }
  const out: DnssecResult = { status: w.status, reason, chain };
  if (signatures.length > 0) out.signatures = signatures;
  return out;
}

/** One question of any type the validator asks (TLSA for DANE), with its verdict. */
export interface ValidatedAnswer {
  status: DnssecResult['status'];
  reason: string;
  /** NXDOMAIN, NOERROR…; absent when the question failed */
  rcode?: string;
  /** each record of the answer RRset, by the type table's field names */
  data: Array<Record<string, unknown>>;
}

/**
 * With `whenPresent`, an answer without records of the type is returned as it is, unproven
 * (status indeterminate): for a caller to whom absence means nothing to check (DANE: no TLSA,
 * no DANE), the chain of trust is then walked only when there is something to trust.
 */
export async function validatedAnswer(
  name: string,
  type: string,
  server: string | undefined,
  options: DnssecOptions & { whenPresent?: boolean } = {},
): Promise<ValidatedAnswer> {
  throwIfAborted(options.signal);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const tries = options.tries ?? DEFAULT_TRIES;
  const ns = await nameserver(server, options, timeoutMs * tries);
  const anchors = loadTrustAnchors(options.env);
  const exchange = options.exchange ?? createExchange({ timeoutMs, tries });
  const resolver = new Resolver(
    exchange,
    ns,
    anchors.ok ? anchors.anchors : [],
    options.now ?? Date.now,
    options.signal,
  );
  if (options.whenPresent === true) {
    const first = await resolver.ask(queryName(name), type);
    if (!first.ok) throw first.error;
    if (!first.answers.some((s) => s.type === type || s.type === 'CNAME')) {
      return {
        status: 'indeterminate',
        reason: `no ${type} records`,
        rcode: first.rcode,
        data: [],
      };
    }
  }
  const verdict = await validateQuestion(resolver, queryName(name), type);
  throwIfAborted(options.signal);
  if (verdict.failed !== undefined) throw verdict.failed.error;
  const data = verdict.answers.filter((s) => s.type === type).flatMap((s) => s.data);
  return {
    status: anchors.ok ? verdict.status : 'indeterminate',
    reason: anchors.ok ? verdict.reason : anchors.reason,
    ...(verdict.rcode !== undefined ? { rcode: verdict.rcode } : {}),
    data,
  };
}
