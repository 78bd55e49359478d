// "Refresh" on a host node: asks the same question again.
import * as vscode from 'vscode';
import type { Deps } from '../deps';
import { DnsHostNode } from '../views/nodes/dns';
import { runDnsLookup } from './dnsLookup';

export function registerRefreshEntry(context: vscode.ExtensionContext, deps: Deps): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('hostlens.refreshEntry', async (node?: unknown) => {
      if (!(node instanceof DnsHostNode)) return;
      const { host, types, server } = node.entry;
      await runDnsLookup(deps, { host, types, server });
    }),
  );
}
