// "HostLens: Check Mail Set-up…": SPF, DKIM (default selectors), DMARC, MTA-STS, TLS-RPT, BIMI.
import type * as vscode from 'vscode';
import type { Deps } from '../deps';
import { registerMailCommand } from '../lookups/mailLookup';

export function registerShowMailSetup(context: vscode.ExtensionContext, deps: Deps): void {
  registerMailCommand(context, deps, {
    id: 'hostlens.showMailSetup',
    title: 'HostLens: Check Mail Set-up',
    prompt: 'Mail domain',
    part: 'all',
  });
}
