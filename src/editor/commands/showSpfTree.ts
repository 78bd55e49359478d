// "HostLens: Show SPF Tree": the host's policy with every include and redirect resolved.
import * as vscode from 'vscode';
import type { Deps } from '../deps';
import { askTarget } from '../target';
import { runMailLookup } from '../lookups/mailLookup';

export function registerShowSpfTree(context: vscode.ExtensionContext, deps: Deps): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('hostlens.showSpfTree', async (target?: unknown) => {
      const host = await askTarget('host', target, {
        title: 'HostLens: Show SPF Tree',
        prompt: 'Domain whose SPF policy to resolve',
      });
      if (!host) return undefined;
      return runMailLookup(deps, { host, server: deps.settings().dnsServer, part: 'spf' });
    }),
  );
}
