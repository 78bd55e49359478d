import * as vscode from 'vscode';
import type { ResultNode } from '../views/nodes/base';

export function registerCopyValue(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('hostlens.copyValue', async (node?: ResultNode) => {
      const value = node?.value();
      if (value !== undefined) await vscode.env.clipboard.writeText(value);
    }),
  );
}
