// "HostLens: Choose Backend": the embedded engine, or a hosted service (hostlens serve).
// Choosing the hosted service asks for its one address (prefilled with the current one, so
// running the command again fixes a wrong address) and the token when none is stored, checks
// the service answers (/healthz, then an authorised request) and only then saves the two base
// URLs. Backend settings are the user's (machine) settings, never a workspace's.
import * as vscode from 'vscode';
import { TOKEN_SECRET_KEY, type Backend } from '../backend';
import { toLookupError } from '../../contract/errors';
import { hostedBases, type HostedBases } from '../../services/hostedBases';
import { loadServices } from '../loadServices';
import { SETTINGS_SECTION, type BackendKind } from '../settings';

const TITLE = 'HostLens: Choose Backend';

export function registerChooseBackend(context: vscode.ExtensionContext, backend: Backend): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('hostlens.chooseBackend', async (choice?: unknown) => {
      const config = vscode.workspace.getConfiguration(SETTINGS_SECTION);
      // A caller that names the kind (a test, a link) switches without questions when the
      // service is already set up.
      if (choice === 'embedded' || (choice === 'remote' && configured(config))) {
        await config.update('backend', choice, vscode.ConfigurationTarget.Global);
        return true;
      }
      const kind: BackendKind | undefined =
        choice === 'remote' ? 'remote' : await pickKind(backend.kind());
      if (!kind) return false;
      if (kind === 'embedded') {
        await config.update('backend', kind, vscode.ConfigurationTarget.Global);
        return true;
      }
      const bases = await askAndCheck(context, currentOrigin(config));
      if (!bases) return false;
      await config.update(
        'domainApiBaseUrl',
        bases.domainApiBaseUrl,
        vscode.ConfigurationTarget.Global,
      );
      await config.update(
        'metaApiBaseUrl',
        bases.metaApiBaseUrl,
        vscode.ConfigurationTarget.Global,
      );
      await config.update('backend', 'remote', vscode.ConfigurationTarget.Global);
      void vscode.window.showInformationMessage(`HostLens: look-ups now go to ${bases.origin}.`);
      return true;
    }),
  );
}

function configured(config: vscode.WorkspaceConfiguration): boolean {
  return (
    config.get<string>('domainApiBaseUrl', '').trim() !== '' &&
    config.get<string>('metaApiBaseUrl', '').trim() !== ''
  );
}

/** The address the saved base URLs share, to prefill the box; empty when there is none. */
function currentOrigin(config: vscode.WorkspaceConfiguration): string {
  const domain = config.get<string>('domainApiBaseUrl', '').trim();
  if (domain === '') return '';
  try {
    return hostedBases(domain).origin;
  } catch {
    return domain;
  }
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
      description: current === 'remote' ? 'current: change its address or token' : '',
      detail: 'Look-ups go to a HostLens service (yours or your team’s) with an API token.',
    },
  ];
  const picked = await vscode.window.showQuickPick(items, { title: TITLE });
  return picked?.backend;
}

/**
 * The address, then the token when none is stored, then the check; a failed check asks for
 * the address again with the reason shown, until it passes or the user gives up.
 */
async function askAndCheck(
  context: vscode.ExtensionContext,
  prefill: string,
): Promise<HostedBases | undefined> {
  let value = prefill;
  let problem: string | undefined;
  for (;;) {
    const address = await vscode.window.showInputBox({
      title: TITLE,
      prompt:
        problem ??
        'The address of the HostLens service (where hostlens serve listens), for example https://hostlens.example.com',
      placeHolder: 'https://hostlens.example.com',
      value,
      ignoreFocusOut: true,
      validateInput: (v) => addressProblem(v),
    });
    if (address === undefined) return undefined;
    value = address.trim();
    const bases = hostedBases(value);
    let token = await context.secrets.get(TOKEN_SECRET_KEY);
    if (!token) {
      const saved = await vscode.commands.executeCommand<boolean>('hostlens.setApiToken');
      token = saved ? await context.secrets.get(TOKEN_SECRET_KEY) : undefined;
      if (!token) return undefined;
    }
    try {
      await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: `HostLens: checking ${bases.origin}…`,
        },
        async () => (await loadServices()).checkHostedService(bases, token),
      );
      return bases;
    } catch (err) {
      const error = toLookupError(err);
      if (error.code === 'unauthorized') {
        const action = 'Set a New Token';
        const choice = await vscode.window.showWarningMessage(
          `HostLens: ${sentence(error.detail)} Nothing was saved.`,
          action,
        );
        if (choice !== action) return undefined;
        if (!(await vscode.commands.executeCommand<boolean>('hostlens.setApiToken')))
          return undefined;
        problem = undefined;
        continue;
      }
      problem = `${sentence(error.detail)} Nothing was saved: correct the address, or Escape to leave.`;
    }
  }
}

function addressProblem(value: string): string | undefined {
  if (value.trim() === '') return 'Enter the service’s address';
  try {
    hostedBases(value);
    return undefined;
  } catch (err) {
    return toLookupError(err).detail;
  }
}

/** A message as a sentence: a full stop added unless it already ends in one (or a "?"). */
function sentence(text: string): string {
  return /[.?!]$/.test(text) ? text : `${text}.`;
}
