// "HostLens: Check Certificates of Zone Names": every name of the open zone file that has an
// address record gets a TLS look-up on 443 (services/zone-certificates.ts); a certificate that
// expires soon (or has expired), or whose issuing CA the name's CAA records do not allow,
// becomes a warning on the name's first address record. Run on request only: it connects to
// every such host.
import * as vscode from 'vscode';
import {
  addressNames,
  checkZoneCertificates,
  MAX_CERTIFICATE_NAMES,
  type CertificateFinding,
} from '../../services/zone-certificates';
import { zoneCommandDiagnostics, type ZoneSessionOf } from './zoneDiagnostics';
import type { Deps } from '../deps';

export const CHECK_ZONE_CERTIFICATES = 'hostlens.checkZoneCertificates';

export interface ZoneCertificateReport {
  checked: number;
  /** names left out past MAX_CERTIFICATE_NAMES */
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
        const count = Math.min(names.length, MAX_CERTIFICATE_NAMES);
        const server = deps.settings().dnsServer;
        const check = await vscode.window.withProgress(
          {
            location: vscode.ProgressLocation.Notification,
            title: `HostLens: checking the certificates of ${count} name${count === 1 ? '' : 's'}`,
            cancellable: true,
          },
          (progress, token) => {
            const controller = new AbortController();
            token.onCancellationRequested(() => controller.abort());
            return checkZoneCertificates(deps.services().domain, names, {
              ...(server ? { server } : {}),
              signal: controller.signal,
              onChecked: (host, _done, of) =>
                progress.report({ increment: 100 / of, message: host }),
            });
          },
        );
        if (check === undefined) return undefined;
        const diagnostics = check.findings.map(toDiagnostic);
        collection.set(editor.document.uri, diagnostics);
        const { checked, skipped } = check;
        void vscode.window.showInformationMessage(
          `HostLens: ${checked} name${checked === 1 ? '' : 's'} checked, ${diagnostics.length} certificate warning${diagnostics.length === 1 ? '' : 's'}${skipped > 0 ? ` (${skipped} names past the first ${MAX_CERTIFICATE_NAMES} left out)` : ''}.`,
        );
        return { checked, skipped, diagnostics };
      },
    ),
  );
}

function toDiagnostic(finding: CertificateFinding): vscode.Diagnostic {
  const r = finding.range;
  const d = new vscode.Diagnostic(
    new vscode.Range(r.line, r.start, r.endLine ?? r.line, r.end),
    `${finding.host}: ${finding.message}`,
    vscode.DiagnosticSeverity.Warning,
  );
  d.source = 'HostLens TLS';
  d.code = finding.code;
  return d;
}
