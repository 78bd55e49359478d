// "HostLens: Trace Redirects…": every hop of a URL's redirect chain in the panel.
import * as vscode from 'vscode';
import type { Deps } from '../deps';
import { loadingBase, runView, type PanelOutcome } from '../panels/runView';
import type { RedirectsView } from '../../protocol';
import { urlArgumentOrPrompt } from './urlTarget';

export function registerTraceRedirects(context: vscode.ExtensionContext, deps: Deps): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(
      'hostlens.traceRedirects',
      async (target?: unknown): Promise<PanelOutcome | undefined> => {
        const url = await urlArgumentOrPrompt(target, 'HostLens: Trace Redirects');
        return url === undefined ? undefined : openRedirects(context, deps, url);
      },
    ),
  );
}

export function openRedirects(
  context: vscode.ExtensionContext,
  deps: Deps,
  url: string,
): Promise<PanelOutcome> {
  return runView(
    context,
    deps,
    { kind: 'redirects', ...loadingBase(url) },
    `HostLens: tracing redirects of ${url}`,
    async (signal): Promise<RedirectsView> => ({
      kind: 'redirects',
      ...loadingBase(url),
      status: 'ready',
      data: await deps.services().meta.redirects({ url }, { signal }),
    }),
  );
}
