// "HostLens: WHOIS…": registration data of a name (prefilled from the editor) in the panel.
// A host string argument (hover, tree, panel links) skips the prompt.
import * as vscode from 'vscode';
import type { Deps } from '../deps';
import { loadingBase, runView, type PanelOutcome } from '../panels/runView';
import type { WhoisView } from '../../protocol';
import { hostFromEditor } from './editorTarget';

export function registerWhois(context: vscode.ExtensionContext, deps: Deps): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(
      'hostlens.whois',
      async (target?: unknown): Promise<PanelOutcome | undefined> => {
        const host =
          argument(target) ??
          (await vscode.window.showInputBox({
            title: 'HostLens: WHOIS',
            prompt: 'Domain name',
            placeHolder: 'example.com',
            value: hostFromEditor(vscode.window.activeTextEditor) ?? '',
            ignoreFocusOut: true,
            validateInput: (v) => (v.trim() === '' ? 'Enter a domain name' : undefined),
          }));
        if (!host || host.trim() === '') return undefined;
        return openWhois(context, deps, host.trim());
      },
    ),
  );
}

export function openWhois(
  context: vscode.ExtensionContext,
  deps: Deps,
  host: string,
): Promise<PanelOutcome> {
  return runView(
    context,
    deps,
    { kind: 'whois', ...loadingBase(host), showRaw: false },
    `HostLens: WHOIS ${host}`,
    async (signal, panel): Promise<WhoisView> => {
      const data = await deps.services().domain.whois({ host }, { signal });
      return {
        kind: 'whois',
        ...loadingBase(host),
        status: 'ready',
        data,
        showRaw: panel.showRaw,
      };
    },
  );
}

/** A host name, or `{host}` from a tree node. */
function argument(target: unknown): string | undefined {
  if (typeof target === 'string' && target.trim() !== '') return target.trim();
  if (typeof target === 'object' && target !== null) {
    const host = (target as { host?: unknown }).host;
    if (typeof host === 'string' && host.trim() !== '') return host.trim();
  }
  return undefined;
}
