// "HostLens: Trace Redirects…": every hop of a URL's redirect chain in the panel.
import type * as vscode from 'vscode';
import type { Deps } from '../deps';
import { registerPanelCommand } from '../panels/panelCommand';
import { loadingBase } from '../panels/viewStates';
import type { RedirectsView } from '../../protocol';

export function registerTraceRedirects(context: vscode.ExtensionContext, deps: Deps): void {
  registerPanelCommand(context, deps, {
    id: 'hostlens.traceRedirects',
    target: 'url',
    title: 'HostLens: Trace Redirects',
    progress: (url) => `HostLens: tracing redirects of ${url}`,
    loading: (url) => ({ kind: 'redirects', ...loadingBase(url) }),
    load: async (url, signal): Promise<RedirectsView> => ({
      kind: 'redirects',
      ...loadingBase(url),
      status: 'ready',
      data: await deps.services().meta.redirects({ url }, { signal }),
    }),
  });
}
