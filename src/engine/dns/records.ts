// One look-up of one record type with a c-ares Resolver, turned into the contract's records or
// into an outcome: NXDOMAIN, NODATA, or a failure code. Which c-ares code means what was checked
// against the loopback fixture server and Knot DNS (test/unit/engine/dns).
import type { promises as dns } from 'node:dns';
import { fqdn } from '../names';
import type { DnsRecord, RecordType, TypeFailure } from '../../contract/shapes';

export type TypeOutcome =
  | { kind: 'records'; records: DnsRecord[] }
  | { kind: 'nxdomain' }
  | { kind: 'nodata' }
  | { kind: 'failed'; code: TypeFailure['code'] }
  | { kind: 'cancelled' };

type Resolver = dns.Resolver;

export async function lookupType(
  resolver: Resolver,
  name: string,
  type: RecordType,
): Promise<TypeOutcome> {
  try {
    const records = await fetchRecords(resolver, name, type);
    // c-ares gives an empty list when the answer held only a CNAME chain: no data of this type.
    return records.length === 0 ? { kind: 'nodata' } : { kind: 'records', records };
  } catch (err) {
    const code = errorCode(err);
    // resolveSoa reports a CNAME chain without an SOA at its end as a bad response. Asking for
    // the CNAME tells that case (no SOA here: NODATA) from a truly malformed answer.
    if (type === 'SOA' && code === 'EBADRESP' && (await isAlias(resolver, name))) {
      return { kind: 'nodata' };
    }
    return outcomeFor(code);
  }
}

async function isAlias(resolver: Resolver, name: string): Promise<boolean> {
  try {
    return (await resolver.resolveCname(name)).length > 0;
  } catch {
    return false;
  }
}

function errorCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Node's names for the c-ares status codes (ENOTFOUND is NXDOMAIN, ENODATA is NODATA). */
export function outcomeFor(code: string | undefined): TypeOutcome {
  switch (code) {
    case 'ENOTFOUND':
      return { kind: 'nxdomain' };
    case 'ENODATA':
      return { kind: 'nodata' };
    case 'ETIMEOUT':
      return { kind: 'failed', code: 'upstream_timeout' };
    case 'ESERVFAIL':
      return { kind: 'failed', code: 'servfail' };
    case 'EREFUSED':
      return { kind: 'failed', code: 'refused' };
    case 'ECONNREFUSED':
      return { kind: 'failed', code: 'connection_refused' };
    case 'ECANCELLED':
    case 'EDESTRUCTION':
      return { kind: 'cancelled' };
    default:
      // EBADRESP, EFORMERR, ENOTIMP, EBADNAME, ...: the nameserver's answer was unusable.
      return { kind: 'failed', code: 'upstream_error' };
  }
}

async function fetchRecords(
  resolver: Resolver,
  name: string,
  type: RecordType,
): Promise<DnsRecord[]> {
  switch (type) {
    case 'A':
      return (await resolver.resolve4(name, { ttl: true })).map((r) => ({
        type,
        value: r.address,
        ttl: r.ttl,
      }));
    case 'AAAA':
      return (await resolver.resolve6(name, { ttl: true })).map((r) => ({
        type,
        value: r.address,
        ttl: r.ttl,
      }));
    case 'CAA':
      return (await resolver.resolveCaa(name)).map((r) => caaRecord(r));
    case 'CNAME':
      return (await resolver.resolveCname(name)).map((v) => ({ type, value: fqdn(v) }));
    case 'MX':
      // A null MX (RFC 7505) has the root as exchange, which c-ares gives as "".
      return (await resolver.resolveMx(name)).map((r) => ({
        type,
        value: fqdn(r.exchange),
        priority: r.priority,
      }));
    case 'NS':
      return (await resolver.resolveNs(name)).map((v) => ({ type, value: fqdn(v) }));
    case 'PTR':
      return (await resolver.resolvePtr(name)).map((v) => ({ type, value: fqdn(v) }));
    case 'TXT':
      return (await resolver.resolveTxt(name)).map((parts) => ({
        type,
        value: parts.join(''),
        parts,
      }));
    case 'SRV':
      return (await resolver.resolveSrv(name)).map((r) => ({
        type,
        priority: r.priority,
        weight: r.weight,
        port: r.port,
        value: fqdn(r.name),
      }));
    case 'SOA': {
      const soa = await resolver.resolveSoa(name);
      return [
        {
          type,
          mname: fqdn(soa.nsname),
          rname: fqdn(soa.hostmaster),
          serial: soa.serial,
          refresh: soa.refresh,
          retry: soa.retry,
          expire: soa.expire,
          min_ttl: soa.minttl,
        },
      ];
    }
  }
}

// Node hands a CAA record over as {critical: <flags octet>, <tag>: <value>}; Node 22+ adds
// `type: 'CAA'` (the extension host of VS Code runs a newer Node than the command line may).
export function caaRecord(raw: object): DnsRecord {
  const entries = Object.entries(raw as Record<string, unknown>).filter(([k]) => k !== 'critical');
  const flags = Number((raw as { critical?: unknown }).critical ?? 0);
  const tagged =
    entries.length > 1 ? entries.filter(([k, v]) => !(k === 'type' && v === 'CAA')) : entries;
  const [tag = '', value = ''] = tagged[0] ?? [];
  return { type: 'CAA', flags, tag, value: String(value) };
}
