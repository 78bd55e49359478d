// Runs one look-up into the panel: a loading state at once, then the answer or a designed
// error state. Progress is cancellable; a newer look-up or closing the panel aborts it too.
import * as vscode from 'vscode';
import type { Deps } from '../deps';
import type { RenderedSummary, ViewState } from '../../protocol';
import { failedView } from './viewStates';
import { HostLensPanel } from './hostLensPanel';

/** What a panel command returns (the integration tests read it). */
export interface PanelOutcome {
  view: ViewState;
  /** what the webview drew for this state; undefined if it did not say in time */
  rendered(): Promise<RenderedSummary | undefined>;
  /** the page the panel was given (CSP and all) */
  html: string;
}

export async function runView(
  context: vscode.ExtensionContext,
  deps: Deps,
  loading: ViewState,
  progressTitle: string,
  load: (signal: AbortSignal, panel: HostLensPanel) => Promise<ViewState>,
): Promise<PanelOutcome> {
  const panel = HostLensPanel.createOrShow(context.extensionUri, deps.log);
  const signal = panel.begin();
  panel.show(loading);
  const started = Date.now();
  const view = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: progressTitle, cancellable: true },
    async (_progress, token): Promise<ViewState> => {
      const controller = new AbortController();
      const onAbort = () => controller.abort();
      signal.addEventListener('abort', onAbort);
      const subscription = token.onCancellationRequested(onAbort);
      try {
        return await load(controller.signal, panel);
      } catch (err) {
        return failedView(loading, err);
      } finally {
        subscription.dispose();
        signal.removeEventListener('abort', onAbort);
      }
    },
  );
  deps.log.info(
    `${view.kind} ${view.target}: ${view.error ? view.error.code : 'ok'} in ${Date.now() - started} ms`,
  );
  // A newer look-up owns the panel now: this answer is stale.
  const shown = signal.aborted && view.error?.code === 'cancelled' ? view : panel.show(view);
  return {
    view: shown,
    rendered: () => panel.whenRendered(shown.seq),
    html: panel.html,
  };
}
