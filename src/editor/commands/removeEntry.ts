import * as vscode from 'vscode';
import type { Deps } from '../deps';
import { HostNode } from '../views/nodes/host';

export function registerRemoveEntry(context: vscode.ExtensionContext, deps: Deps): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('hostlens.removeEntry', async (node?: unknown) => {
      if (!(node instanceof HostNode)) return;
      for (const entry of node.entries) await deps.history.remove(entry);
      deps.results.refresh();
    }),
  );
}
