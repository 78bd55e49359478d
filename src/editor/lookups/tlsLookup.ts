// Runs a TLS look-up of one endpoint (443 unless a port is named) and shows its Certificate
// node under the host in the results view.
import type { Deps } from '../deps';
import type { TlsEntry } from '../views/history';
import { withLookupProgress } from '../progress';
import { errorSummary, showEntry } from './showEntry';

export interface TlsLookupRequest {
  host: string;
  port?: number;
  server?: string;
}

export async function runTlsLookup(deps: Deps, request: TlsLookupRequest): Promise<TlsEntry> {
  const { host, port, server } = request;
  const started = Date.now();
  const base = { kind: 'tls' as const, host, ...(port !== undefined ? { port } : {}), server };
  const entry = await withLookupProgress(
    `HostLens: TLS certificate of ${host}${port !== undefined ? `:${port}` : ''}`,
    async (signal): Promise<TlsEntry> => {
      try {
        const result = await deps
          .services()
          .domain.tls(
            { host, ...(port !== undefined ? { port } : {}), ...(server ? { server } : {}) },
            { signal },
          );
        return { ...base, at: Date.now(), result };
      } catch (err) {
        return { ...base, at: Date.now(), error: errorSummary(err) };
      }
    },
  );
  deps.log.info(
    `tls ${host}: ${entry.error ? entry.error.code : 'answered'} in ${Date.now() - started} ms`,
  );
  await showEntry(deps, entry);
  return entry;
}
