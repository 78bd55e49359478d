// One node per (host, nameserver): its DNS records and, once asked, its mail set-up.
import * as vscode from 'vscode';
import type { DnsLookupEntry, HistoryEntry, MailEntry, TlsEntry, ZoneDriftEntry } from '../history';
import { ResultNode } from './base';
import { dnsChildren } from './dns';
import { MailNode } from './mail';
import { tlsNode } from './tls';
import { ZoneDriftNode } from './zoneDrift';

export class HostNode extends ResultNode {
  constructor(
    readonly host: string,
    readonly server: string | undefined,
    readonly dns: DnsLookupEntry | undefined,
    readonly mail: MailEntry | undefined,
    readonly drift?: ZoneDriftEntry,
    readonly tls?: TlsEntry,
  ) {
    super();
  }

  get entries(): HistoryEntry[] {
    return [this.dns, this.mail, this.drift, this.tls].filter(
      (e): e is HistoryEntry => e !== undefined,
    );
  }

  toTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.host, vscode.TreeItemCollapsibleState.Expanded);
    item.id = `host:${this.host}@${this.server ?? ''}`;
    // A zone compared with no server named was asked of its own nameservers, not a resolver.
    const unnamed = this.dns || this.mail || this.tls ? 'system resolver' : 'its nameservers';
    item.description = this.server ? `@${this.server}` : unnamed;
    item.iconPath = new vscode.ThemeIcon('globe');
    item.contextValue = 'host';
    const at = Math.max(...this.entries.map((e) => e.at));
    item.tooltip = new vscode.MarkdownString(
      `**${this.host}**\n\nServer: ${this.server ?? unnamed}\n\nLooked up ${new Date(at).toLocaleString()}`,
    );
    return item;
  }

  children(): ResultNode[] {
    return [
      ...(this.dns ? dnsChildren(this.dns) : []),
      ...(this.mail ? [new MailNode(this.mail)] : []),
      ...(this.tls ? [tlsNode(this.tls)] : []),
      ...(this.drift ? [new ZoneDriftNode(this.drift)] : []),
    ];
  }

  json(): unknown {
    return {
      host: this.host,
      ...(this.dns ? { dns: this.dns.result ?? { error: this.dns.error } } : {}),
      ...(this.mail ? { mail: this.mail.setup ?? { error: this.mail.error } } : {}),
      ...(this.drift ? { zone_drift: this.drift.result } : {}),
      ...(this.tls ? { tls: this.tls.result ?? { error: this.tls.error } } : {}),
    };
  }
}

/** Groups the history (newest first) into host nodes, keeping the order of first sight. */
export function hostNodes(entries: readonly HistoryEntry[]): HostNode[] {
  const groups = new Map<
    string,
    {
      dns?: DnsLookupEntry;
      mail?: MailEntry;
      drift?: ZoneDriftEntry;
      tls?: TlsEntry;
      host: string;
      server?: string;
    }
  >();
  for (const entry of entries) {
    const key = `${entry.host}@${entry.server ?? ''}`;
    const group = groups.get(key) ?? { host: entry.host, server: entry.server };
    if (entry.kind === 'dns') group.dns ??= entry;
    else if (entry.kind === 'mail') group.mail ??= entry;
    else if (entry.kind === 'tls') group.tls ??= entry;
    else group.drift ??= entry;
    groups.set(key, group);
  }
  return [...groups.values()].map(
    (g) => new HostNode(g.host, g.server, g.dns, g.mail, g.drift, g.tls),
  );
}
