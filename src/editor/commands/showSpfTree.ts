// "HostLens: Show SPF Tree": the host's policy with every include and redirect resolved.
import * as vscode from 'vscode';
import type { Deps } from '../deps';
import { askHost } from './askHost';
import { runMailLookup } from './mailLookup';

export function registerShowSpfTree(context: vscode.ExtensionContext, deps: Deps): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('hostlens.showSpfTree', async (target?: unknown) => {
      const host = await askHost(
        target,
        'HostLens: Show SPF Tree',
        'Domain whose SPF policy to resolve',
      );
      if (!host) return undefined;
      return runMailLookup(deps, { host, server: deps.settings().dnsServer, part: 'spf' });
    }),
  );
}
