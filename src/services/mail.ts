// What composes mail look-ups over any DomainService: the whole mail set-up of a domain, and
// the RFC 7208 check_host of a client IP. The editor and the command line call these instead
// of wiring the engine themselves, so both behave the same over the embedded engine and the
// HTTP backend.
import { LookupError, toLookupError, type ErrorCode } from '../contract/errors';
import type { CallOptions, DomainService } from '../contract/services';
import type {
  DomainKeysResult,
  MtaStsResult,
  QueryResult,
  RecordType,
  SpfRoot,
  TlsResult,
} from '../contract/shapes';
import { mxHosts } from '../engine/tls/mta-sts';
import { normalizeHost } from '../engine/names';
import {
  KINDS,
  MAIL_RECORD_KINDS,
  parseMailRecord,
  type MailRecordKind,
  type ParsedMailRecord,
} from '../engine/mail/policy-records';
import {
  checkHost,
  type CheckHostOptions,
  type CheckHostParams,
  type CheckHostResult,
} from '../engine/mail/spf-check';
import { EmbeddedServices } from './embedded';

export interface MailLookupError {
  error: { code: ErrorCode; message: string };
}

/** null: the name holds no record of that kind. */
export type MailRecordResult = ParsedMailRecord | null | MailLookupError;

export interface MailSetup {
  host: string;
  spf: SpfRoot | MailLookupError;
  dkim: DomainKeysResult | MailLookupError;
  dmarc: MailRecordResult;
  mta_sts: MailRecordResult;
  tls_rpt: MailRecordResult;
  bimi: MailRecordResult;
  /**
   * additive: STARTTLS on port 25 of each MX host (certificate, chain, DANE per RFC 7672);
   * absent when the caller left the transport out
   */
  transport?: MxTransport[] | MailLookupError;
  /** additive: the MTA-STS policy (RFC 8461) fetched and held against the MX hosts */
  mta_sts_policy?: MtaStsResult | MailLookupError;
}

export interface MxTransport {
  host: string;
  preference: number;
  tls: TlsResult | MailLookupError;
}

export interface MailSetupOptions extends CallOptions {
  server?: string;
  /** DKIM selectors to ask instead of the default list */
  selectors?: string[];
  /**
   * false: leave out STARTTLS of the MX hosts and the MTA-STS policy fetch (outbound port 25 is
   * closed on many networks, and each closed MX host waits out the TLS deadline)
   */
  transport?: boolean;
}

/** SPF, DKIM, DMARC, MTA-STS, TLS-RPT and BIMI of one host, all asked at once. */
export async function mailSetup(
  domain: DomainService,
  host: string,
  options: MailSetupOptions = {},
): Promise<MailSetup> {
  const name = normalizeHost(host);
  const call: CallOptions = options.signal ? { signal: options.signal } : {};
  const server = options.server !== undefined ? { server: options.server } : {};
  const selectors = options.selectors?.length ? { selectors: options.selectors } : {};
  const transportWanted = options.transport !== false;
  const transportAndPolicy = async () => {
    // The MX answer both need, asked once: the embedded engine takes it into the MTA-STS
    // look-up; another backend's operation asks its own.
    const mx = domain.query({ host: name, types: ['MX'], ...server }, call);
    mx.catch(() => undefined);
    const policy = { host: name, ...server };
    return Promise.all([
      settle(mxTransport(domain, name, mx, server, call)),
      settle(
        domain instanceof EmbeddedServices
          ? domain.mtaStsWithMx(policy, mx, call)
          : domain.mtaSts(policy, call),
      ),
    ]);
  };
  const [spf, dkim, [dmarc, mtaSts, tlsRpt, bimi], transport] = await Promise.all([
    settle(domain.senderPolicyRanges({ host: name, ...server }, call)),
    settle(domain.domainKeys({ host: name, ...server, ...selectors }, call)),
    Promise.all(MAIL_RECORD_KINDS.map((kind) => fetchRecord(domain, kind, name, server, call))),
    transportWanted ? transportAndPolicy() : undefined,
  ]);
  if (options.signal?.aborted) throw toLookupError(options.signal.reason);
  return {
    host: name,
    spf,
    dkim,
    dmarc,
    mta_sts: mtaSts,
    tls_rpt: tlsRpt,
    bimi,
    ...(transport ? { transport: transport[0], mta_sts_policy: transport[1] } : {}),
  };
}

/**
 * Each MX host's STARTTLS on port 25, all at once: the certificate a sender sees, its chain
 * and the DANE verdict of `_25._tcp.<mx>` (the TLS operation applies RFC 7672 with starttls).
 */
async function mxTransport(
  domain: DomainService,
  host: string,
  mx: Promise<QueryResult>,
  server: { server?: string },
  call: CallOptions,
): Promise<MxTransport[]> {
  const answer = await mx;
  const failed = answer.errors?.find((e) => e.type === 'MX');
  if (failed)
    throw new LookupError('upstream_error', `The MX look-up of ${host} failed (${failed.code})`);
  return Promise.all(
    mxHosts(answer).map(async (mx) => ({
      ...mx,
      tls: await settle(domain.tls({ host: mx.host, starttls: 'smtp', ...server }, call)),
    })),
  );
}

async function settle<T>(promise: Promise<T>): Promise<T | MailLookupError> {
  try {
    return await promise;
  } catch (err) {
    const e = toLookupError(err);
    if (e.code === 'cancelled') throw e;
    return { error: { code: e.code, message: e.detail } };
  }
}

async function fetchRecord(
  domain: DomainService,
  kind: MailRecordKind,
  host: string,
  server: { server?: string },
  call: CallOptions,
): Promise<MailRecordResult> {
  const name = `${KINDS[kind].prefix}.${host}`;
  const result = await settle(domain.query({ host: name, types: ['TXT'], ...server }, call));
  if ('error' in result) return result;
  const failed = result.errors?.find((e) => e.type === 'TXT');
  if (failed) {
    const code: ErrorCode =
      failed.code === 'upstream_timeout' ? 'upstream_timeout' : 'upstream_error';
    return { error: { code, message: `The TXT look-up of ${name} failed (${failed.code})` } };
  }
  const texts = result.records.filter((r) => r.type === 'TXT').map((r) => r.value ?? '');
  return parseMailRecord(kind, name, texts);
}

export type SpfCheckOptions = Pick<CheckHostOptions, 'signal' | 'receiver' | 'now'>;

/**
 * check_host() of RFC 7208 over a DomainService. The embedded engine answers its own questions
 * (it can also ask for macro-built names no host-name API accepts); any other backend is asked
 * one name and type at a time through its `query`.
 */
export function checkSpf(
  domain: DomainService,
  params: CheckHostParams,
  options: SpfCheckOptions = {},
): Promise<CheckHostResult> {
  if (domain instanceof EmbeddedServices) return domain.checkSpf(params, options);
  const server = params.server;
  return checkHost(params, {
    ...options,
    dnsLookup: (name: string, type: RecordType, signal?: AbortSignal) =>
      domain.query(
        { host: name, types: [type], ...(server !== undefined ? { server } : {}) },
        { signal: signal ?? options.signal },
      ),
  });
}

export type { MailRecordProblem, ParsedMailRecord } from '../engine/mail/policy-records';
export { mxVerdict, type MxVerdict } from './mxVerdict';
export type { CheckHostParams, CheckHostResult, SpfResult } from '../engine/mail/spf-check';
