// Runs one DNS look-up with progress and cancellation, records it in the history and
// reveals it in the results view. Errors become history entries and a message, never throws.
import * as vscode from 'vscode';
import type { Deps } from '../deps';
import { toLookupError } from '../engine/errors';
import type { DnsLookupEntry, ErrorSummary } from '../views/history';
import { withLookupProgress } from './progress';

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
        const result = await deps
          .services()
          .domain.query(
            { host: request.host, types: request.types, server: request.server },
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
    } in ${Date.now() - started} ms`,
  );
  if (entry.error?.code === 'cancelled') return entry;
  if (entry.error && isInputError(entry.error.code)) {
    void vscode.window.showErrorMessage(`HostLens: ${entry.error.message}`);
    return entry;
  }
  await deps.history.put(entry);
  deps.results.refresh();
  await vscode.commands.executeCommand('hostlens.results.focus');
  if (entry.error)
    void vscode.window.showErrorMessage(`HostLens: ${request.host}: ${entry.error.message}`);
  return entry;
}

/** Input mistakes are reported to the user but not kept in the history. */
export function isInputError(code: string): boolean {
  return (
    code === 'invalid_host' ||
    code === 'invalid_type' ||
    code === 'invalid_server' ||
    code === 'invalid_argument'
  );
}

export function errorSummary(err: unknown): ErrorSummary {
  const error = toLookupError(err);
  return { code: error.code, message: error.detail };
}
