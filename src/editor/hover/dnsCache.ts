// Answers for hovers, cached per (name, type, server, DNSSEC or not) for their TTL so moving
// the mouse over the same name does not ask again; a plain answer never stands in for a
// validated one. Pure and clock-injected, so it is unit-tested in Node.
import type {
  DnsRecord,
  DnssecResult,
  QueryResult,
  RecordType,
  TypeFailure,
} from '../../contract/shapes';

/** Answers without a TTL (the resolver gives none for some types) and empty ones. */
const DEFAULT_TTL_SECONDS = 60;
const NEGATIVE_TTL_SECONDS = 30;
const MAX_TTL_SECONDS = 3600;
const MAX_ENTRIES = 2000;

export interface TypeAnswer {
  records: DnsRecord[];
  nxdomain: boolean;
  failure?: TypeFailure;
  /** the verdict of the query that brought this answer (the worst of its types') */
  dnssec?: DnssecResult;
}

interface Entry extends TypeAnswer {
  expires: number;
}

/** Where an answer comes from: the nameserver asked, and whether it was validated. */
export interface AnswerSource {
  server: string | undefined;
  dnssec: boolean;
}

export class DnsCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly now: () => number = Date.now) {}

  get(name: string, type: RecordType, source: AnswerSource): TypeAnswer | undefined {
    const key = cacheKey(name, type, source);
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    const { expires: _expires, ...answer } = entry;
    return answer;
  }

  /** Files one answer of several types under each type it asked for. */
  put(name: string, types: RecordType[], source: AnswerSource, result: QueryResult): void {
    for (const type of types) {
      const records = result.records.filter((r) => r.type === type);
      const failure = result.errors?.find((e) => e.type === type);
      const ttls = records.map((r) => r.ttl).filter((t): t is number => t !== undefined);
      let ttl = records.length === 0 ? NEGATIVE_TTL_SECONDS : DEFAULT_TTL_SECONDS;
      if (ttls.length > 0) ttl = Math.min(...ttls, MAX_TTL_SECONDS);
      // A failed type is not cached: the next hover asks again.
      if (failure) continue;
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(cacheKey(name, type, source), {
        records,
        nxdomain: result.status === 'NXDOMAIN',
        dnssec: result.dnssec,
        expires: this.now() + ttl * 1000,
      });
    }
  }

  clear(): void {
    this.entries.clear();
  }
}

function cacheKey(name: string, type: RecordType, source: AnswerSource): string {
  return `${name.toLowerCase()}|${type}|${source.server ?? ''}|${source.dnssec ? 'dnssec' : 'plain'}`;
}
