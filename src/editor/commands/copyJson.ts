import * as vscode from 'vscode';
import type { ResultNode } from '../views/nodes/base';

export function registerCopyJson(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('hostlens.copyJson', async (node?: ResultNode) => {
      const json = node?.json();
      if (json !== undefined) await vscode.env.clipboard.writeText(JSON.stringify(json, null, 2));
    }),
  );
}
