// "HostLens: Look Up DNS Records…": host (prefilled from the editor), types, nameserver.
import * as vscode from 'vscode';
import type { Deps } from '../deps';
import { RECORD_TYPES } from '../engine/types';
import { runDnsLookup } from './dnsLookup';
import { hostFromEditor } from './editorTarget';

export function registerLookUpDnsRecords(context: vscode.ExtensionContext, deps: Deps): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('hostlens.lookUpDnsRecords', async (hostArg?: unknown) => {
      const host =
        typeof hostArg === 'string' && hostArg !== ''
          ? hostArg
          : await vscode.window.showInputBox({
              title: 'HostLens: Look Up DNS Records (1/3)',
              prompt: 'Hostname or IP address',
              placeHolder: 'example.com',
              value: hostFromEditor(vscode.window.activeTextEditor) ?? '',
              ignoreFocusOut: true,
              validateInput: (v) => (v.trim() === '' ? 'Enter a hostname' : undefined),
            });
      if (!host) return;
      const picked = await vscode.window.showQuickPick(
        RECORD_TYPES.map((type) => ({ label: type, picked: true })),
        {
          title: 'HostLens: Look Up DNS Records (2/3): record types',
          canPickMany: true,
          ignoreFocusOut: true,
        },
      );
      if (!picked || picked.length === 0) return;
      const server = await vscode.window.showInputBox({
        title: 'HostLens: Look Up DNS Records (3/3): nameserver',
        prompt: 'Nameserver address or name; leave empty for the configured default',
        placeHolder: deps.settings().dnsServer ?? 'system resolvers',
        value: deps.settings().dnsServer ?? '',
        ignoreFocusOut: true,
      });
      if (server === undefined) return;
      const types = picked.length === RECORD_TYPES.length ? undefined : picked.map((p) => p.label);
      await runDnsLookup(deps, {
        host: host.trim(),
        types,
        server: server.trim() === '' ? undefined : server.trim(),
      });
    }),
  );
}
