// Shows which backend answers (Embedded, Remote, Remote: no token); a click opens the choice.
import * as vscode from 'vscode';
import type { Backend } from './backend';

export function registerStatusBar(
  context: vscode.ExtensionContext,
  backend: Backend,
): vscode.StatusBarItem {
  const item = vscode.window.createStatusBarItem(
    'hostlens.backend',
    vscode.StatusBarAlignment.Right,
    100,
  );
  item.name = 'HostLens Backend';
  item.command = 'hostlens.chooseBackend';
  const update = () => {
    if (backend.kind() === 'embedded') {
      item.text = '$(server-environment) HostLens: Embedded';
      item.tooltip =
        'HostLens answers with its embedded engine (no account). Click to choose the backend.';
      item.backgroundColor = undefined;
    } else if (backend.hasToken()) {
      item.text = '$(cloud) HostLens: Remote';
      item.tooltip =
        'HostLens answers through the hosted service with your API token. Click to choose the backend.';
      item.backgroundColor = undefined;
    } else {
      item.text = '$(warning) HostLens: Remote: no token';
      item.tooltip =
        'The remote backend needs an API token: click to set one or switch back to the embedded engine.';
      item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
    }
  };
  update();
  item.show();
  context.subscriptions.push(item, backend.onDidChange(update));
  return item;
}
