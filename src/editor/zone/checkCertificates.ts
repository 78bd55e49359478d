// "HostLens: Check Certificates of Zone Names": every name of the open zone file that has an
// address record gets a TLS look-up on 443; a certificate that expires soon (or has expired),
// or whose issuing CA the name's CAA records do not allow, becomes a warning on the name's
// first address record. Run on request only: it connects to every such host.
import * as vscode from 'vscode';
import type { TlsResult } from '../../contract/shapes';
import { toLookupError } from '../../contract/errors';
import { zoneCommandDiagnostics, type ZoneSessionOf } from './zoneDiagnostics';
import type { Deps } from '../deps';
import type { ZoneSession } from '../../services/zone';

export const CHECK_ZONE_CERTIFICATES = 'hostlens.checkZoneCertificates';
/** Names looked up per run, and at once: a zone of thousands of hosts is not a TLS scan. */
const MAX_NAMES = 100;
const CONCURRENCY = 4;
const WARNED = new Set(['expires_soon', 'expired', 'caa_mismatch']);

export interface ZoneCertificateReport {
  checked: number;
  /** names left out past MAX_NAMES */
  skipped: number;
  diagnostics: vscode.Diagnostic[];
}

export function registerCheckZoneCertificates(
  context: vscode.ExtensionContext,
  sessionOf: ZoneSessionOf,
  deps: Pick<Deps, 'services' | 'settings'>,
): void {
  const collection = zoneCommandDiagnostics(context, 'hostlens-zone-tls');
  context.subscriptions.push(
    vscode.workspace.onDidChangeTextDocument((e) => {
      // The warnings sit on lines as they were; an edit makes them stale.
      if (e.contentChanges.length > 0) collection.delete(e.document.uri);
    }),
    vscode.commands.registerCommand(
      CHECK_ZONE_CERTIFICATES,
      async (): Promise<ZoneCertificateReport | undefined> => {
        const editor = vscode.window.activeTextEditor;
        const session = editor && sessionOf(editor.document);
        if (editor === undefined || session === undefined) {
          void vscode.window.showWarningMessage(
            'HostLens: open a zone file to check the certificates of its names.',
          );
          return undefined;
        }
        const names = addressNames(session);
        const chosen = names.slice(0, MAX_NAMES);
        const server = deps.settings().dnsServer;
        const diagnostics = await vscode.window.withProgress(
          {
            location: vscode.ProgressLocation.Notification,
            title: `HostLens: checking the certificates of ${chosen.length} name${chosen.length === 1 ? '' : 's'}`,
            cancellable: true,
          },
          async (progress, token) => {
            const controller = new AbortController();
            token.onCancellationRequested(() => controller.abort());
            const found: vscode.Diagnostic[] = [];
            let next = 0;
            const worker = async () => {
              while (next < chosen.length && !controller.signal.aborted) {
                const { host, range } = chosen[next++];
                const result = await deps
                  .services()
                  .domain.tls(
                    { host, ...(server ? { server } : {}) },
                    { signal: controller.signal },
                  )
                  .catch((err: unknown) => toLookupError(err));
                progress.report({ increment: 100 / chosen.length, message: host });
                if ('problems' in result) found.push(...warnings(host, result, range));
              }
            };
            await Promise.all(Array.from({ length: CONCURRENCY }, worker));
            return controller.signal.aborted ? undefined : found;
          },
        );
        if (diagnostics === undefined) return undefined;
        collection.set(editor.document.uri, diagnostics);
        const skipped = names.length - chosen.length;
        void vscode.window.showInformationMessage(
          `HostLens: ${chosen.length} name${chosen.length === 1 ? '' : 's'} checked, ${diagnostics.length} certificate warning${diagnostics.length === 1 ? '' : 's'}${skipped > 0 ? ` (${skipped} names past the first ${MAX_NAMES} left out)` : ''}.`,
        );
        return { checked: chosen.length, skipped, diagnostics };
      },
    ),
  );
}

/** Each owner with an A or AAAA record (wildcards aside), at its first such record. */
function addressNames(session: ZoneSession): Array<{ host: string; range: vscode.Range }> {
  const seen = new Map<string, vscode.Range>();
  for (const record of session.recordsOfTypes('A', 'AAAA')) {
    if (record.key.startsWith('*.') || seen.has(record.key)) continue;
    const r = record.ownerRange ?? record.range;
    seen.set(record.key, new vscode.Range(r.line, r.start, r.endLine ?? r.line, r.end));
  }
  return [...seen].map(([key, range]) => ({ host: key.replace(/\.$/, ''), range }));
}

function warnings(host: string, result: TlsResult, range: vscode.Range): vscode.Diagnostic[] {
  return result.problems
    .filter((p) => WARNED.has(p.code))
    .map((p) => {
      const d = new vscode.Diagnostic(
        range,
        `${host}: ${p.message}`,
        vscode.DiagnosticSeverity.Warning,
      );
      d.source = 'HostLens TLS';
      d.code = p.code;
      return d;
    });
}
