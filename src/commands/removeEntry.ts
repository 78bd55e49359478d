import * as vscode from 'vscode';
import type { Deps } from '../deps';
import { DnsHostNode } from '../views/nodes/dns';

export function registerRemoveEntry(context: vscode.ExtensionContext, deps: Deps): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('hostlens.removeEntry', async (node?: unknown) => {
      if (!(node instanceof DnsHostNode)) return;
      await deps.history.remove(node.entry);
      deps.results.refresh();
    }),
  );
}
