import * as vscode from 'vscode';
import { TOKEN_SECRET_KEY } from '../backend';

export function registerClearApiToken(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('hostlens.clearApiToken', async () => {
      await context.secrets.delete(TOKEN_SECRET_KEY);
      void vscode.window.showInformationMessage('HostLens: API token removed.');
    }),
  );
}
