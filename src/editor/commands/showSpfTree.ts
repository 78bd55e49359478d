// "HostLens: Show SPF Tree": the host's policy with every include and redirect resolved.
import type * as vscode from 'vscode';
import type { Deps } from '../deps';
import { registerMailCommand } from '../lookups/mailLookup';

export function registerShowSpfTree(context: vscode.ExtensionContext, deps: Deps): void {
  registerMailCommand(context, deps, {
    id: 'hostlens.showSpfTree',
    title: 'HostLens: Show SPF Tree',
    prompt: 'Domain whose SPF policy to resolve',
    part: 'spf',
  });
}
