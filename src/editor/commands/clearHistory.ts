import * as vscode from 'vscode';
import type { Deps } from '../deps';

export function registerClearHistory(context: vscode.ExtensionContext, deps: Deps): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('hostlens.clearHistory', async () => {
      await deps.history.clear();
      deps.results.clearPinned();
      deps.results.refresh();
    }),
  );
}
