// "HostLens: Show Mail Set-up": SPF, DKIM (default selectors), DMARC, MTA-STS, TLS-RPT, BIMI.
import * as vscode from 'vscode';
import type { Deps } from '../deps';
import { askTarget } from '../target';
import { runMailLookup } from '../lookups/mailLookup';

export function registerShowMailSetup(context: vscode.ExtensionContext, deps: Deps): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('hostlens.showMailSetup', async (target?: unknown) => {
      const host = await askTarget('host', target, {
        title: 'HostLens: Show Mail Set-up',
        prompt: 'Mail domain',
      });
      if (!host) return undefined;
      return runMailLookup(deps, { host, server: deps.settings().dnsServer, part: 'all' });
    }),
  );
}
