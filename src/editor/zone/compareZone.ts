// "HostLens: Compare Zone with Live DNS": the open zone file against its nameservers (or one
// the caller names), with progress and cancel; differences become diagnostics on the lines
// concerned and as a node of the results view (each server's serial, each difference).
import * as path from 'node:path';
import * as vscode from 'vscode';
import { zoneCommandDiagnostics, type ZoneSessionOf } from './zoneDiagnostics';
import type { Deps } from '../deps';
import type { DriftResult } from '../../services/zone';
import { loadServices } from '../loadServices';
import { driftVerdict } from '../views/nodes/zoneDrift';

export const COMPARE_ZONE = 'hostlens.compareZoneWithLiveDns';

export function registerCompareZone(
  context: vscode.ExtensionContext,
  sessionOf: ZoneSessionOf,
  deps: Pick<Deps, 'history' | 'results'>,
): void {
  const collection = zoneCommandDiagnostics(context, 'hostlens-zone-drift');
  context.subscriptions.push(
    vscode.commands.registerCommand(
      COMPARE_ZONE,
      async (args?: { server?: string }): Promise<DriftResult | undefined> => {
        const editor = vscode.window.activeTextEditor;
        const session = editor && sessionOf(editor.document);
        const apex = session?.document.apex;
        if (editor === undefined || session === undefined || apex === undefined) {
          void vscode.window.showWarningMessage(
            'HostLens: open a zone file (with an $ORIGIN, an absolute SOA owner or a zone file name) to compare it.',
          );
          return undefined;
        }
        const document = editor.document;
        // From the palette (no arguments) the user may name a server; empty asks the zone's own.
        const options = args ?? (await askServer(apex));
        if (options === undefined) return undefined;
        const result = await vscode.window.withProgress(
          {
            location: vscode.ProgressLocation.Notification,
            title: `HostLens: comparing ${apex} with its nameservers`,
            cancellable: true,
          },
          async (_progress, token) => {
            const controller = new AbortController();
            token.onCancellationRequested(() => controller.abort());
            try {
              return await (
                await loadServices()
              ).compareZoneRecords(apex, session.records(), {
                server: options.server,
                signal: controller.signal,
              });
            } catch (err) {
              if (controller.signal.aborted) return undefined;
              void vscode.window.showErrorMessage(`HostLens: ${(err as Error).message}`);
              return undefined;
            }
          },
        );
        if (result === undefined) return undefined;
        const serials = result.serials
          .map((s) => `${s.server}: ${s.serial ?? `unreachable (${s.error ?? 'no answer'})`}`)
          .join('; ');
        // No answer is not a match: the diagnostics and results of the last compare that
        // did reach a server stay as they were.
        if (!result.serials.some((s) => s.serial !== null)) {
          void vscode.window.showErrorMessage(
            `HostLens: could not compare ${apex}: no nameserver answered. ${serials}`,
          );
          return result;
        }
        collection.set(document.uri, driftDiagnostics(document, result));
        const fileSerial = session.recordsOfTypes('SOA')[0]?.serial;
        await deps.history.put({
          kind: 'zone-drift',
          host: apex.replace(/\.$/, '').toLowerCase(),
          server: options.server,
          at: Date.now(),
          file: document.isUntitled ? document.uri.path : path.basename(document.uri.fsPath),
          ...(fileSerial !== undefined ? { fileSerial } : {}),
          result,
        });
        deps.results.refresh();
        void vscode.commands.executeCommand('hostlens.results.focus');
        void vscode.window.showInformationMessage(
          `HostLens: ${driftVerdict(apex, result)}. Serials: ${serials}`,
        );
        return result;
      },
    ),
  );
}

async function askServer(apex: string): Promise<{ server?: string } | undefined> {
  const typed = await vscode.window.showInputBox({
    title: `HostLens: Compare ${apex} with Live DNS`,
    prompt:
      'A nameserver to ask (address[:port] or host name), or empty for the NS records of the file',
    placeHolder: 'empty: every nameserver of the zone',
    ignoreFocusOut: true,
  });
  if (typed === undefined) return undefined;
  const server = typed.trim();
  return server === '' ? {} : { server };
}

function driftDiagnostics(document: vscode.TextDocument, result: DriftResult): vscode.Diagnostic[] {
  return result.drift.map((d) => {
    // DriftEntry lines are 1-based; a record only live (no line) goes on the first line.
    const line = Math.max(0, Math.min((d.line ?? 1) - 1, document.lineCount - 1));
    const what =
      d.kind === 'missing'
        ? `not served by ${d.server}`
        : d.kind === 'extra'
          ? `served by ${d.server} but not in this file: ${d.live}`
          : `${d.server} serves ${d.live}`;
    const diagnostic = new vscode.Diagnostic(
      document.lineAt(line).range,
      `${d.name} ${d.type}: ${what}`,
      vscode.DiagnosticSeverity.Information,
    );
    diagnostic.code = `drift-${d.kind}`;
    diagnostic.source = 'HostLens live DNS';
    return diagnostic;
  });
}
