import * as vscode from 'vscode';
import type { Deps } from '../deps';

export function registerShowLog(context: vscode.ExtensionContext, deps: Deps): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('hostlens.showLog', () => deps.log.show(true)),
  );
}
