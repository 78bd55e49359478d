// Runs one DNS look-up with progress and cancellation, records it in the history and
// reveals it in the results view. Errors become history entries and a message, never throws.
import type { Deps } from '../deps';
import type { DnsLookupEntry } from '../views/history';
import { withLookupProgress } from '../progress';
import { errorSummary, showEntry } from './showEntry';

export interface DnsLookupRequest {
  host: string;
  types?: string[];
  server?: string;
}

export async function runDnsLookup(deps: Deps, request: DnsLookupRequest): Promise<DnsLookupEntry> {
  const started = Date.now();
  const entry = await withLookupProgress(
    `HostLens: looking up ${request.host}`,
    async (signal): Promise<DnsLookupEntry> => {
      try {
        // The setting is read at each look-up, so a refresh follows it too.
        const dnssec = deps.settings().dnssec ? true : undefined;
        const result = await deps
          .services()
          .domain.query(
            { host: request.host, types: request.types, server: request.server, dnssec },
            { signal },
          );
        return { kind: 'dns', ...request, at: Date.now(), result };
      } catch (err) {
        return { kind: 'dns', ...request, at: Date.now(), error: errorSummary(err) };
      }
    },
  );
  deps.log.info(
    `query ${request.host} types=${request.types?.join(',') ?? 'all'} server=${request.server ?? 'system'}: ${
      entry.error ? entry.error.code : `${entry.result?.records.length ?? 0} records`
    }${entry.result?.dnssec ? `, DNSSEC ${entry.result.dnssec.status}` : ''} in ${Date.now() - started} ms`,
  );
  await showEntry(deps, entry);
  return entry;
}
