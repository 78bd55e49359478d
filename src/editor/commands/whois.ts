// "HostLens: WHOIS…": registration data of a name (prefilled from the editor) in the panel.
// A host string argument (hover, tree, panel links) skips the prompt.
import type * as vscode from 'vscode';
import type { Deps } from '../deps';
import { registerPanelCommand } from '../panels/panelCommand';
import { loadingBase } from '../panels/viewStates';
import type { WhoisView } from '../../protocol';

export function registerWhois(context: vscode.ExtensionContext, deps: Deps): void {
  registerPanelCommand(context, deps, {
    id: 'hostlens.whois',
    target: 'host',
    title: 'HostLens: WHOIS',
    progress: (host) => `HostLens: WHOIS ${host}`,
    loading: (host) => ({ kind: 'whois', ...loadingBase(host), showRaw: false }),
    load: async (host, signal, panel): Promise<WhoisView> => ({
      kind: 'whois',
      ...loadingBase(host),
      status: 'ready',
      data: await deps.services().domain.whois({ host }, { signal }),
      showRaw: panel.showRaw,
    }),
  });
}
