// "Refresh" on a host node: asks the same questions again.
import * as vscode from 'vscode';
import type { Deps } from '../deps';
import { HostNode } from '../views/nodes/host';
import { runDnsLookup } from '../lookups/dnsLookup';
import { runMailLookup } from '../lookups/mailLookup';
import { runTlsLookup } from '../lookups/tlsLookup';

export function registerRefreshEntry(context: vscode.ExtensionContext, deps: Deps): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('hostlens.refreshEntry', async (node?: unknown) => {
      if (!(node instanceof HostNode)) return;
      if (node.dns) {
        const { host, types, server } = node.dns;
        await runDnsLookup(deps, { host, types, server });
      }
      if (node.mail)
        await runMailLookup(deps, { host: node.host, server: node.server, part: 'all' });
      if (node.tls)
        await runTlsLookup(deps, { host: node.host, port: node.tls.port, server: node.server });
    }),
  );
}
