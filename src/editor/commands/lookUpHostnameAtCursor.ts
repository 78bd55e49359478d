// "HostLens: Look Up Hostname at Cursor": all types for the name under the cursor.
import * as vscode from 'vscode';
import type { Deps } from '../deps';
import { runDnsLookup } from '../lookups/dnsLookup';
import { hostFromEditor } from '../target';

export function registerLookUpHostnameAtCursor(context: vscode.ExtensionContext, deps: Deps): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('hostlens.lookUpHostnameAtCursor', async () => {
      const host = hostFromEditor(vscode.window.activeTextEditor);
      if (!host) {
        void vscode.window.showInformationMessage(
          'HostLens: put the cursor on a hostname or IP address first.',
        );
        return;
      }
      return runDnsLookup(deps, { host, server: deps.settings().dnsServer });
    }),
  );
}
