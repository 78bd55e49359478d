// "HostLens: Set API Token": a password box; the token goes to SecretStorage only.
import * as vscode from 'vscode';
import { TOKEN_SECRET_KEY } from '../backend';

export function registerSetApiToken(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('hostlens.setApiToken', async (token?: unknown) => {
      const value =
        typeof token === 'string'
          ? token
          : await vscode.window.showInputBox({
              title: 'HostLens: Set API Token',
              prompt:
                'The token of the hosted HostLens service. It is kept in VS Code’s secret storage.',
              password: true,
              ignoreFocusOut: true,
              validateInput: (v) =>
                v.trim() === ''
                  ? 'Enter the token'
                  : /\s/.test(v.trim())
                    ? 'A token has no spaces'
                    : undefined,
            });
      if (value === undefined || value.trim() === '') return false;
      await context.secrets.store(TOKEN_SECRET_KEY, value.trim());
      void vscode.window.showInformationMessage('HostLens: API token saved.');
      return true;
    }),
  );
}
