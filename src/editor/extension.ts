// Wires VS Code to the services: settings, log, history, views, commands. No logic here and
// no network I/O during activation.
import * as vscode from 'vscode';
import { Backend } from './backend';
import {
  registerCheckLinksInWorkspace,
  type LinkCheckFeature,
} from './commands/checkLinksInWorkspace';
import { registerChooseBackend } from './commands/chooseBackend';
import { registerClearApiToken } from './commands/clearApiToken';
import { registerClearHistory } from './commands/clearHistory';
import { registerCopyJson } from './commands/copyJson';
import { registerCopyValue } from './commands/copyValue';
import { registerFindDkimKeys } from './commands/findDkimKeys';
import { registerLookUpDnsRecords } from './commands/lookUpDnsRecords';
import { registerLookUpHostnameAtCursor } from './commands/lookUpHostnameAtCursor';
import { registerRefreshEntry } from './commands/refreshEntry';
import { registerRemoveEntry } from './commands/removeEntry';
import { registerSetApiToken } from './commands/setApiToken';
import { registerPreviewLink } from './commands/previewLink';
import { registerShowIcons } from './commands/showIcons';
import { registerShowLog } from './commands/showLog';
import { registerShowMailSetup } from './commands/showMailSetup';
import { registerShowCertificate } from './commands/showCertificate';
import { registerShowSpfTree } from './commands/showSpfTree';
import { registerTestSpf } from './commands/testSpf';
import { registerTraceRedirects } from './commands/traceRedirects';
import { registerWhois } from './commands/whois';
import type { Deps } from './deps';
import { registerSpfDiagnostics } from './diagnostics/spfDiagnostics';
import { registerHostHover } from './hover/hostHover';
import { createLog } from './log';
import { readSettings, SETTINGS_SECTION } from './settings';
import { History } from './views/history';
import { registerStatusBar } from './statusBar';
import { ResultsTreeProvider } from './views/resultsTree';
import { registerZoneFileSniffer } from './zoneFileSniffer';
import { registerZoneLanguage } from './zone/zoneLanguage';

/** What activate() returns: used by the integration tests, not a public API. */
export interface HostLensApi {
  deps: Deps;
  backend: Backend;
  resultsTreeItemCount(): Promise<number>;
  linkCheck: LinkCheckFeature;
}

export function activate(context: vscode.ExtensionContext): HostLensApi {
  const log = createLog(context);
  let settings = readSettings();
  const backend = new Backend(context.secrets, () => settings, log);
  context.subscriptions.push(
    backend,
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (!event.affectsConfiguration(SETTINGS_SECTION)) return;
      settings = readSettings();
      backend.rebuild();
    }),
  );
  const history = new History(context.globalState, () => settings.historyMaxHosts);
  const results = new ResultsTreeProvider(history);
  context.subscriptions.push(
    results,
    vscode.window.createTreeView('hostlens.results', {
      treeDataProvider: results,
      showCollapseAll: true,
    }),
  );
  const deps: Deps = {
    services: () => backend.current(),
    settings: () => settings,
    history,
    results,
    log,
  };

  registerLookUpDnsRecords(context, deps);
  registerLookUpHostnameAtCursor(context, deps);
  registerShowMailSetup(context, deps);
  registerShowCertificate(context, deps);
  registerShowSpfTree(context, deps);
  registerFindDkimKeys(context, deps);
  registerTestSpf(context, deps);
  registerWhois(context, deps);
  registerPreviewLink(context, deps);
  registerTraceRedirects(context, deps);
  registerShowIcons(context, deps);
  registerRefreshEntry(context, deps);
  registerRemoveEntry(context, deps);
  registerClearHistory(context, deps);
  registerCopyValue(context);
  registerCopyJson(context);
  registerShowLog(context, deps);
  registerHostHover(context, deps);
  registerZoneFileSniffer(context);
  registerZoneLanguage(context, deps);
  registerSpfDiagnostics(context, deps);
  const linkCheck = registerCheckLinksInWorkspace(context, deps);
  registerSetApiToken(context);
  registerClearApiToken(context);
  registerChooseBackend(context, backend);
  registerStatusBar(context, backend);

  const { version } = context.extension.packageJSON as { version: string };
  log.info(`HostLens ${version} activated`);
  return {
    deps,
    backend,
    resultsTreeItemCount: () => Promise.resolve(results.getChildren().length),
    linkCheck,
  };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
