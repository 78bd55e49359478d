// "HostLens: Look Up DNS Records…": host (prefilled from the editor), types, nameserver.
import * as vscode from 'vscode';
import type { Deps } from '../deps';
import { RECORD_TYPES } from '../../contract/shapes';
import { runDnsLookup, type DnsLookupRequest } from '../lookups/dnsLookup';
import { askTarget, targetArgument } from '../target';

export function registerLookUpDnsRecords(context: vscode.ExtensionContext, deps: Deps): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('hostlens.lookUpDnsRecords', async (target?: unknown) => {
      // From a hover link or another command: look up straight away, no questions.
      const direct = directRequest(target, deps);
      if (direct) return runDnsLookup(deps, direct);
      const host = await askTarget('host', undefined, {
        title: 'HostLens: Look Up DNS Records (1/3)',
        prompt: 'Hostname or IP address',
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
      return runDnsLookup(deps, {
        host: host.trim(),
        types,
        server: server.trim() === '' ? undefined : server.trim(),
      });
    }),
  );
}

/** A host name, or `{host, types?, server?}`, passed by a link or a caller. */
function directRequest(target: unknown, deps: Deps): DnsLookupRequest | undefined {
  if (typeof target === 'string') {
    const host = targetArgument(target, 'host');
    return host === undefined ? undefined : { host, server: deps.settings().dnsServer };
  }
  if (
    typeof target === 'object' &&
    target !== null &&
    typeof (target as DnsLookupRequest).host === 'string'
  ) {
    const { host, types, server } = target as DnsLookupRequest;
    return {
      host,
      types: Array.isArray(types) ? types.map(String) : undefined,
      server: typeof server === 'string' ? server : deps.settings().dnsServer,
    };
  }
  return undefined;
}
