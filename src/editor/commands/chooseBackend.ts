// "HostLens: Choose Backend": embedded engine or hosted service; choosing the hosted service
// asks for what it still lacks (base URLs, token).
import * as vscode from 'vscode';
import type { Backend } from '../backend';
import { SETTINGS_SECTION, type BackendKind } from '../settings';

export function registerChooseBackend(context: vscode.ExtensionContext, backend: Backend): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('hostlens.chooseBackend', async (choice?: unknown) => {
      const kind: BackendKind | undefined =
        choice === 'embedded' || choice === 'remote' ? choice : await pickKind(backend.kind());
      if (!kind) return;
      const config = vscode.workspace.getConfiguration(SETTINGS_SECTION);
      if (kind === 'remote') {
        if (
          !(await ensureUrl(
            config,
            'domainApiBaseUrl',
            'Domain service base URL',
            'https://api.example.com/domain',
          ))
        )
          return;
        if (
          !(await ensureUrl(
            config,
            'metaApiBaseUrl',
            'Web metadata service base URL',
            'https://api.example.com/meta',
          ))
        )
          return;
      }
      await config.update('backend', kind, vscode.ConfigurationTarget.Global);
      if (kind === 'remote' && !backend.hasToken() && choice === undefined) {
        await vscode.commands.executeCommand('hostlens.setApiToken');
      }
    }),
  );
}

async function pickKind(current: BackendKind): Promise<BackendKind | undefined> {
  const items: Array<vscode.QuickPickItem & { backend: BackendKind }> = [
    {
      backend: 'embedded',
      label: 'Embedded engine',
      description: current === 'embedded' ? 'current' : '',
      detail: 'Look-ups run in VS Code. No account needed.',
    },
    {
      backend: 'remote',
      label: 'Hosted service',
      description: current === 'remote' ? 'current' : '',
      detail: 'Look-ups go to a HostLens service (yours or your team’s) with an API token.',
    },
  ];
  const picked = await vscode.window.showQuickPick(items, { title: 'HostLens: Choose Backend' });
  return picked?.backend;
}

async function ensureUrl(
  config: vscode.WorkspaceConfiguration,
  key: string,
  prompt: string,
  placeHolder: string,
): Promise<boolean> {
  if (config.get<string>(key, '').trim() !== '') return true;
  const url = await vscode.window.showInputBox({
    title: 'HostLens: Choose Backend',
    prompt,
    placeHolder,
    ignoreFocusOut: true,
    validateInput: (v) => (/^https?:\/\/\S+$/i.test(v.trim()) ? undefined : 'Enter an http(s) URL'),
  });
  if (!url) return false;
  await config.update(key, url.trim(), vscode.ConfigurationTarget.Global);
  return true;
}
