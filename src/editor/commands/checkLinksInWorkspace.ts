// "HostLens: Check Links in Workspace": every workspace folder's links, mail domains and zone
// records through the current backend, under a cancellable progress notification; findings in
// the Problems panel and a summary node in the results view. A saved file of a language in
// `hostlens.linkCheck.onSaveLanguages` (Markdown by default) is checked again on its own.
import { dirname } from 'node:path';
import * as vscode from 'vscode';
import type { CheckOptions, CheckReport } from '../../services/check/index';
import { loadServices } from '../loadServices';
import type { Deps } from '../deps';
import { LinkDiagnostics } from '../linkCheck/diagnostics';
import { LinkQuickFixes } from '../linkCheck/quickFixes';
import { LinkCheckSummaryNode } from '../views/nodes/linkCheck';

/** For tests and scripted runs: a folder other than the workspace's, a staging nameserver. */
export interface CheckLinksArgs {
  root?: string;
  server?: string;
}

/** A re-check on save that ran to its end (not one a newer save replaced). */
export interface LinkRecheck {
  uri: vscode.Uri;
  report?: CheckReport;
  error?: string;
}

export interface LinkCheckFeature {
  diagnostics: LinkDiagnostics;
  /** Fires when a saved file's re-check is over and its Problems are set (tests wait on it). */
  onDidRecheck: vscode.Event<LinkRecheck>;
}

export function registerCheckLinksInWorkspace(
  context: vscode.ExtensionContext,
  deps: Deps,
): LinkCheckFeature {
  const diagnostics = new LinkDiagnostics();
  const rechecked = new vscode.EventEmitter<LinkRecheck>();
  const cacheFile = vscode.Uri.joinPath(context.globalStorageUri, 'link-check-cache.json').fsPath;
  const options = (cwd: string, args: CheckLinksArgs, signal: AbortSignal): CheckOptions => {
    const s = deps.settings();
    const server = args.server ?? s.dnsServer;
    return {
      cwd,
      exclude: s.linkCheckExclude,
      maxPerHost: s.linkCheckMaxPerHost,
      expiryDays: s.linkCheckExpiryDays,
      cacheFile,
      signal,
      ...(server ? { server } : {}),
    };
  };

  const run = async (args: CheckLinksArgs = {}): Promise<CheckReport | undefined> => {
    const roots = args.root
      ? [vscode.Uri.file(args.root)]
      : (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri);
    if (roots.length === 0) {
      void vscode.window.showInformationMessage('HostLens: open a folder to check its links.');
      return undefined;
    }
    return vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: 'HostLens: checking links',
        cancellable: true,
      },
      async (progress, token) => {
        const controller = new AbortController();
        const cancel = token.onCancellationRequested(() => controller.abort());
        const merged: CheckReport = { findings: [], checked: { urls: 0, hosts: 0 } };
        try {
          for (const root of roots) {
            let reported = 0;
            const report = await (
              await loadServices()
            ).checkWorkspace(deps.services(), {
              ...options(root.fsPath, args, controller.signal),
              onProgress: ({ done, total }) => {
                const percent = total === 0 ? 0 : (done / total) * 100;
                progress.report({
                  message: `${done} of ${total}`,
                  increment: percent - reported,
                });
                reported = percent;
              },
            });
            diagnostics.replaceAll(root, report.findings);
            merged.findings.push(...report.findings);
            merged.checked.urls += report.checked.urls;
            merged.checked.hosts += report.checked.hosts;
          }
          const folder = roots.map((r) => r.fsPath).join(', ');
          deps.results.setPinned([new LinkCheckSummaryNode(merged, folder, new Date())]);
          return merged;
        } catch (err) {
          if (controller.signal.aborted) return undefined;
          deps.log.error(`link check failed: ${(err as Error).message}`);
          void vscode.window.showErrorMessage(`HostLens: ${(err as Error).message}`);
          return undefined;
        } finally {
          cancel.dispose();
        }
      },
    );
  };

  const inFlight = new Map<string, AbortController>();
  const recheck = async (document: vscode.TextDocument) => {
    if (document.uri.scheme !== 'file') return;
    if (!deps.settings().linkCheckOnSave.includes(document.languageId)) return;
    const key = document.uri.toString();
    inFlight.get(key)?.abort();
    const controller = new AbortController();
    inFlight.set(key, controller);
    const folder = vscode.workspace.getWorkspaceFolder(document.uri)?.uri.fsPath;
    try {
      const report = await (
        await loadServices()
      ).checkTexts(
        deps.services(),
        [{ file: document.uri.fsPath, text: document.getText() }],
        options(folder ?? dirname(document.uri.fsPath), {}, controller.signal),
      );
      if (!controller.signal.aborted) {
        diagnostics.set(document.uri, report.findings);
        rechecked.fire({ uri: document.uri, report });
      }
    } catch (err) {
      if (!controller.signal.aborted) {
        deps.log.warn(`link re-check: ${(err as Error).message}`);
        rechecked.fire({ uri: document.uri, error: (err as Error).message });
      }
    } finally {
      if (inFlight.get(key) === controller) inFlight.delete(key);
    }
  };

  context.subscriptions.push(
    diagnostics,
    rechecked,
    vscode.commands.registerCommand('hostlens.checkLinksInWorkspace', run),
    vscode.languages.registerCodeActionsProvider(
      { scheme: 'file' },
      new LinkQuickFixes(diagnostics),
      { providedCodeActionKinds: LinkQuickFixes.kinds },
    ),
    vscode.workspace.onDidSaveTextDocument((document) => void recheck(document)),
    { dispose: () => inFlight.forEach((c) => c.abort()) },
  );
  return { diagnostics, onDidRecheck: rechecked.event };
}
