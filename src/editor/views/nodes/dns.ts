import * as vscode from 'vscode';
import type { DnsRecord } from '../../../contract/shapes';
import type { DnsLookupEntry } from '../history';
import { icons, jsonTooltip, MessageNode, ResultNode, treeItem } from './base';
import { DnssecNode } from './dnssec';

const TYPE_ICONS: Record<string, string> = {
  A: 'symbol-number',
  AAAA: 'symbol-number',
  CNAME: 'arrow-right',
  MX: 'mail',
  NS: 'server',
  TXT: 'symbol-string',
  SOA: 'symbol-key',
  CAA: 'shield',
  SRV: 'plug',
  PTR: 'arrow-left',
};

/** The record-type nodes (and state messages) of one DNS look-up. */
export function dnsChildren(entry: DnsLookupEntry): ResultNode[] {
  const { result, error } = entry;
  if (error)
    return [new MessageNode(error.message, icons.error, `${error.code}: ${error.message}`)];
  if (!result) return [];
  const nodes: ResultNode[] = [];
  const byType = new Map<string, DnsRecord[]>();
  for (const record of result.records) {
    byType.set(record.type, [...(byType.get(record.type) ?? []), record]);
  }
  for (const [type, records] of byType) nodes.push(new DnsTypeNode(entry, type, records));
  if (result.status === 'NXDOMAIN') {
    nodes.push(new MessageNode('NXDOMAIN: no such domain', icons.error));
  } else if (result.records.length === 0) {
    nodes.push(new MessageNode('No records of the asked types', icons.empty));
  }
  for (const failure of result.errors ?? []) {
    nodes.push(new MessageNode(`${failure.type}: ${failure.code}`, icons.warning));
  }
  if (result.dnssec) {
    nodes.push(new DnssecNode(`${entry.host}@${entry.server ?? ''}`, result.dnssec));
  }
  return nodes;
}

export class DnsTypeNode extends ResultNode {
  constructor(
    private readonly entry: DnsLookupEntry,
    private readonly type: string,
    private readonly records: DnsRecord[],
  ) {
    super(records);
  }

  toTreeItem(): vscode.TreeItem {
    return treeItem(this.type, vscode.TreeItemCollapsibleState.Expanded, {
      id: `dns:${this.entry.host}@${this.entry.server ?? ''}:${this.type}`,
      description: `${this.records.length} record${this.records.length === 1 ? '' : 's'}`,
      iconPath: new vscode.ThemeIcon(TYPE_ICONS[this.type] ?? 'symbol-field'),
      contextValue: 'recordType',
    });
  }

  children(): ResultNode[] {
    return this.records.map((r) => new DnsRecordNode(r));
  }
}

export class DnsRecordNode extends ResultNode {
  constructor(private readonly record: DnsRecord) {
    super(record);
  }

  toTreeItem(): vscode.TreeItem {
    return treeItem(recordLabel(this.record), vscode.TreeItemCollapsibleState.None, {
      description: recordDescription(this.record),
      tooltip: jsonTooltip(this.record),
      contextValue: 'record',
    });
  }

  value(): string {
    return recordLabel(this.record);
  }
}

/** The record's data as a person reads it in a zone file. */
export function recordLabel(r: DnsRecord): string {
  switch (r.type) {
    case 'SOA':
      return `${r.mname} ${r.rname} ${r.serial}`;
    case 'CAA':
      return `${r.flags ?? 0} ${r.tag} "${r.value}"`;
    case 'SRV':
      return `${r.value}:${r.port}`;
    default:
      return r.value ?? '';
  }
}

function recordDescription(r: DnsRecord): string {
  const parts: string[] = [];
  if (r.priority !== undefined) parts.push(`priority ${r.priority}`);
  if (r.weight !== undefined) parts.push(`weight ${r.weight}`);
  if (r.type === 'SOA')
    parts.push(`refresh ${r.refresh} retry ${r.retry} expire ${r.expire} min ${r.min_ttl}`);
  if (r.ttl !== undefined) parts.push(`TTL ${formatTtl(r.ttl)}`);
  return parts.join(' · ');
}

export function formatTtl(seconds: number): string {
  if (seconds >= 86400 && seconds % 86400 === 0) return `${seconds / 86400}d`;
  if (seconds >= 3600 && seconds % 3600 === 0) return `${seconds / 3600}h`;
  if (seconds >= 60 && seconds % 60 === 0) return `${seconds / 60}m`;
  return `${seconds}s`;
}
