// Answers for hovers, cached per (name, type, server) for their TTL so moving the mouse over
// the same name does not ask again. Pure and clock-injected, so it is unit-tested in Node.
import type { DnsRecord, QueryResult, RecordType, TypeFailure } from '../../contract/shapes';

/** Answers without a TTL (the resolver gives none for some types) and empty ones. */
const DEFAULT_TTL_SECONDS = 60;
const NEGATIVE_TTL_SECONDS = 30;
const MAX_TTL_SECONDS = 3600;
const MAX_ENTRIES = 2000;

interface Entry {
  records: DnsRecord[];
  nxdomain: boolean;
  failure?: TypeFailure;
  expires: number;
}

export interface TypeAnswer {
  records: DnsRecord[];
  nxdomain: boolean;
  failure?: TypeFailure;
}

export class DnsCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly now: () => number = Date.now) {}

  get(name: string, type: RecordType, server: string | undefined): TypeAnswer | undefined {
    const key = cacheKey(name, type, server);
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return { records: entry.records, nxdomain: entry.nxdomain, failure: entry.failure };
  }

  /** Files one answer of several types under each type it asked for. */
  put(name: string, types: RecordType[], server: string | undefined, result: QueryResult): void {
    for (const type of types) {
      const records = result.records.filter((r) => r.type === type);
      const failure = result.errors?.find((e) => e.type === type);
      const ttls = records.map((r) => r.ttl).filter((t): t is number => t !== undefined);
      let ttl = records.length === 0 ? NEGATIVE_TTL_SECONDS : DEFAULT_TTL_SECONDS;
      if (ttls.length > 0) ttl = Math.min(...ttls, MAX_TTL_SECONDS);
      // A failed type is not cached: the next hover asks again.
      if (failure) continue;
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(cacheKey(name, type, server), {
        records,
        nxdomain: result.status === 'NXDOMAIN',
        expires: this.now() + ttl * 1000,
      });
    }
  }

  clear(): void {
    this.entries.clear();
  }
}

function cacheKey(name: string, type: RecordType, server: string | undefined): string {
  return `${name.toLowerCase()}|${type}|${server ?? ''}`;
}
