// The shape every panel command shares: register the command, find what it is about (the
// argument, else a prefilled prompt), then run its look-up into the panel.
import * as vscode from 'vscode';
import type { ViewState } from '../../protocol';
import type { Deps } from '../deps';
import { askTarget, type TargetKind } from '../target';
import type { HostLensPanel } from './hostLensPanel';
import { runView, type PanelOutcome } from './runView';

export interface PanelCommand {
  id: string;
  target: TargetKind;
  /** the prompt's title */
  title: string;
  /** the progress notification's text */
  progress(target: string): string;
  /** the state shown at once, while the look-up runs */
  loading(target: string): ViewState;
  load(target: string, signal: AbortSignal, panel: HostLensPanel): Promise<ViewState>;
}

export function registerPanelCommand(
  context: vscode.ExtensionContext,
  deps: Deps,
  command: PanelCommand,
): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(
      command.id,
      async (target?: unknown): Promise<PanelOutcome | undefined> => {
        const value = await askTarget(command.target, target, { title: command.title });
        if (value === undefined) return undefined;
        return runView(
          context,
          deps,
          command.loading(value),
          command.progress(value),
          (signal, panel) => command.load(value, signal, panel),
        );
      },
    ),
  );
}
