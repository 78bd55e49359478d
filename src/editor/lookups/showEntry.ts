// What happens after a look-up for the results view: cancelled ones vanish, input mistakes
// are said and not kept, everything else (answers and failures alike) joins the history and
// is shown.
import * as vscode from 'vscode';
import type { Deps } from '../deps';
import { toLookupError } from '../../contract/errors';
import type { DnsLookupEntry, ErrorSummary, MailEntry, TlsEntry } from '../views/history';

export async function showEntry(
  deps: Deps,
  entry: DnsLookupEntry | MailEntry | TlsEntry,
): Promise<void> {
  if (entry.error?.code === 'cancelled') return;
  if (entry.error && isInputError(entry.error.code)) {
    void vscode.window.showErrorMessage(`HostLens: ${entry.error.message}`);
    return;
  }
  await deps.history.put(entry);
  deps.results.refresh();
  await vscode.commands.executeCommand('hostlens.results.focus');
  if (entry.error) {
    void vscode.window.showErrorMessage(`HostLens: ${entry.host}: ${entry.error.message}`);
  }
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
