// The one DNS question the mail modules ask: one name, one type. Injectable so the SPF and
// DKIM logic can be driven by any backend; the default asks the engine's `query`.
import { setMaxListeners } from 'node:events';
import { LookupError } from '../../contract/errors';
import type { DnsRecord, QueryResult, RecordType } from '../../contract/shapes';
import { DEFAULT_TIMEOUT_MS, DEFAULT_TRIES, query, serversFor, type DnsOptions } from './query';
import { Session, type NameServer } from './transport';
import { parseServer } from './server';
import { isWireName, rawQuery } from './raw-query';

export type DnsLookup = (
  name: string,
  type: RecordType,
  signal?: AbortSignal,
) => Promise<QueryResult>;

export interface MailDnsOptions extends DnsOptions {
  /** replaces the engine's `query` for every question (other backends, tests) */
  dnsLookup?: DnsLookup;
}

/** The lookup to use: the injected one, or `query` against `server` with these options. */
export function resolveLookup(server: string | undefined, options: MailDnsOptions): DnsLookup {
  if (options.dnsLookup) return options.dnsLookup;
  // A malformed server is the caller's mistake: say so now, as query() does, rather than let
  // every question fail and the whole request read as a broken nameserver (upstream_error).
  if (server !== undefined && (typeof server !== 'string' || server.trim() !== '')) {
    parseServer(server);
  }
  const base: DnsOptions = {};
  if (options.timeoutMs !== undefined) base.timeoutMs = options.timeoutMs;
  if (options.tries !== undefined) base.tries = options.tries;
  if (options.lookup !== undefined) base.lookup = options.lookup;
  if (options.blockPrivate !== undefined) base.blockPrivate = options.blockPrivate;
  if (options.allowCidrs !== undefined) base.allowCidrs = options.allowCidrs;
  if (options.ca !== undefined) base.ca = options.ca;
  // The nameserver is resolved (and guarded) once for every question of the operation.
  const budget = (base.timeoutMs ?? DEFAULT_TIMEOUT_MS) * (base.tries ?? DEFAULT_TRIES);
  let servers: Promise<NameServer[]> | undefined;
  base.servers = () => (servers ??= serversFor(server, base, budget));
  // Every question of the operation goes out on the same sockets (one UDP socket per
  // nameserver while questions are in flight), not one socket each.
  base.session = new Session('whileBusy');
  return async (name, type, signal) => {
    const opts = { ...base, ...(signal ? { signal } : {}) };
    try {
      return await query(
        { host: name, types: [type], ...(server !== undefined ? { server } : {}) },
        opts,
      );
    } catch (err) {
      // Names built by SPF macros may hold octets a host name may not; ask those directly.
      if (err instanceof LookupError && err.code === 'invalid_host' && isWireName(name)) {
        return rawQuery(name, type, server, opts);
      }
      throw err;
    }
  };
}

/** How one question ended, in the terms SPF and DKIM reason with. */
export type Answer =
  | { kind: 'records'; records: DnsRecord[] }
  /**
   * NXDOMAIN, or the name exists without records of the type (an RFC 7208 void lookup);
   * `aliased` when the answer held a CNAME chain all the same (an answer count above 0)
   */
  | {
      kind: 'void';
      aliased?: boolean;
      /** with `aliased`: the names of the chain, the asked one included, each once */
      aliasNames?: number;
      /** with `aliased`: the chain ended at a name that does not exist (RCODE 3) */
      nxdomain?: boolean;
    }
  /**
   * timeout, SERVFAIL, REFUSED: the answer is unknown; `detail` says where and how when the
   * look-up failed as a whole ("127.0.0.1:53 did not answer in 5 s")
   */
  | { kind: 'error'; code: string; detail?: string };

/** Asks one question and classifies the outcome; throws `cancelled`, `blocked_target` and
 * `invalid_server` (a nameserver name without addresses), which no other question escapes. */
export async function ask(
  lookup: DnsLookup,
  name: string,
  type: RecordType,
  signal?: AbortSignal,
): Promise<Answer> {
  let result: QueryResult;
  try {
    result = await lookup(name, type, signal);
  } catch (err) {
    if (err instanceof LookupError) {
      // Not an answer but the request itself: cancelled, or a nameserver that may not be used.
      if (err.code === 'cancelled' || err.code === 'blocked_target') throw err;
      if (err.code === 'invalid_server') throw err;
      // A name no resolver would accept cannot have records.
      if (err.code === 'invalid_host') return { kind: 'void' };
      return { kind: 'error', code: err.code, detail: err.detail };
    }
    if (signal?.aborted) throw new LookupError('cancelled', 'The request was cancelled');
    return { kind: 'error', code: 'upstream_error' };
  }
  const failure = result.errors?.find((e) => e.type === type);
  if (failure) return { kind: 'error', code: failure.code };
  const records = result.records.filter((r) => r.type === type);
  if (records.length > 0) return { kind: 'records', records };
  const aliases = result.chain?.length
    ? result.chain
    : result.records.filter((r) => r.type === 'CNAME');
  if (aliases.length === 0) return { kind: 'void' };
  const owner = (n: string | undefined): string => (n ?? '').toLowerCase().replace(/\.$/, '');
  const names = new Set(aliases.map((r) => owner(r.name)));
  names.add(owner(aliases[aliases.length - 1].value));
  return {
    kind: 'void',
    aliased: true,
    aliasNames: names.size,
    nxdomain: result.status === 'NXDOMAIN',
  };
}

/**
 * RFC 7208 section 4.6.4's void look-up: an answer with RCODE 0 and an answer count of 0, or
 * NXDOMAIN. An answer that holds only a CNAME chain has an answer count above 0 (Mail::SPF
 * reads it so too).
 */
export function isVoidLookup(answer: Answer): boolean {
  return answer.kind === 'void' && answer.aliased !== true;
}

/** Why a question failed, for the error of the operation that asked it. */
export function failureText(answer: { code: string; detail?: string }): string {
  return answer.detail ?? answer.code;
}

/**
 * One signal for many questions asked at once (a look-up's): every question in flight adds a
 * listener and removes it when its try ends, and dozens in flight are normal here, not a leak,
 * so Node's 10-listener warning is off for it. The caller's signals hold no listener for it
 * (AbortSignal.any keeps the link itself), so however many questions a look-up asks, a
 * caller's signal carries none of them (test/unit/services/listeners.test.ts).
 */
export function fanOutSignal(...signals: Array<AbortSignal | undefined>): AbortSignal | undefined {
  const present = signals.filter((s): s is AbortSignal => s !== undefined);
  if (present.length === 0) return undefined;
  const combined = AbortSignal.any(present);
  setMaxListeners(0, combined);
  return combined;
}
