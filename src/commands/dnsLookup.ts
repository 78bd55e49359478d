// Runs one DNS look-up with progress and cancellation, records it in the history and
// reveals it in the results view. Errors become history entries and a message, never throws.
import * as vscode from 'vscode';
import type { Deps } from '../deps';
import { LookupError, toLookupError } from '../engine/errors';
import type { DnsLookupEntry } from '../views/history';

export interface DnsLookupRequest {
  host: string;
  types?: string[];
  server?: string;
}

export async function runDnsLookup(deps: Deps, request: DnsLookupRequest): Promise<DnsLookupEntry> {
  const started = Date.now();
  const entry: DnsLookupEntry = await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: `HostLens: looking up ${request.host}`,
      cancellable: true,
    },
    async (_progress, token): Promise<DnsLookupEntry> => {
      const controller = new AbortController();
      const subscription = token.onCancellationRequested(() => controller.abort());
      try {
        const result = await deps
          .services()
          .domain.query(
            { host: request.host, types: request.types, server: request.server },
            { signal: controller.signal },
          );
        return { kind: 'dns', ...request, at: Date.now(), result };
      } catch (err) {
        const error = toLookupError(err);
        return {
          kind: 'dns',
          ...request,
          at: Date.now(),
          error: { code: error.code, message: error.detail },
        };
      } finally {
        subscription.dispose();
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
function isInputError(code: string): boolean {
  return code === 'invalid_host' || code === 'invalid_type' || code === 'invalid_server';
}

export function describeError(err: unknown): string {
  return err instanceof LookupError ? err.detail : toLookupError(err).detail;
}
