// "HostLens: Show TLS Certificate…": the chain a host sends on 443 (or HOST:PORT), its trust
// verdict, CAA and DANE, as a Certificate node under the host in the results view.
import * as vscode from 'vscode';
import type { Deps } from '../deps';
import { runTlsLookup } from '../lookups/tlsLookup';
import { askTarget } from '../target';

export function registerShowCertificate(context: vscode.ExtensionContext, deps: Deps): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('hostlens.showCertificate', async (target?: unknown) => {
      const typed = await askTarget('host', target, {
        title: 'HostLens: Show TLS Certificate',
        prompt: 'Host name or HOST:PORT (443 when no port is given)',
      });
      if (!typed) return undefined;
      const { host, port } = splitHostPort(typed);
      return runTlsLookup(deps, { host, port, server: deps.settings().dnsServer });
    }),
  );
}

/** HOST, HOST:PORT or [IPv6]:PORT; a bare IPv6 address has no port. */
export function splitHostPort(text: string): { host: string; port?: number } {
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(text);
  if (bracketed) {
    return { host: bracketed[1], ...(bracketed[2] ? { port: Number(bracketed[2]) } : {}) };
  }
  const match = /^([^:]+):(\d{1,5})$/.exec(text);
  return match ? { host: match[1], port: Number(match[2]) } : { host: text };
}
