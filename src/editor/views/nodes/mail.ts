// The "Mail" node of a host: SPF tree, DKIM keys, DMARC, MTA-STS, TLS-RPT and BIMI, each
// problem a child node with its reason; then the transport (STARTTLS of each MX host) and the
// MTA-STS policy (nodes/tls.ts).
import * as vscode from 'vscode';
import type { MailLookupError, MailRecordResult, ParsedMailRecord } from '../../../services/mail';
import type {
  DkimEntry,
  DomainKeysResult,
  SpfNode,
  SpfProblem,
  SpfRoot,
} from '../../../contract/shapes';
import type { MailEntry } from '../history';
import { icons, jsonTooltip, LeafNode, MessageNode, ResultNode, treeItem } from './base';
import { MtaStsPolicyNode, TransportNode } from './tls';
import { SPF_MAX_LOOKUPS } from '../../../contract/limits';

const WEAK_RSA_BITS = 2048;

function isError(value: unknown): value is MailLookupError {
  return typeof value === 'object' && value !== null && 'error' in value;
}

function errorNode(label: string, error: MailLookupError['error']): MessageNode {
  return new MessageNode(
    `${label}: ${error.message}`,
    icons.error,
    `${error.code}: ${error.message}`,
  );
}

export class MailNode extends ResultNode {
  constructor(private readonly entry: MailEntry) {
    super();
  }

  toTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem('Mail', vscode.TreeItemCollapsibleState.Expanded);
    item.id = `mail:${this.entry.host}@${this.entry.server ?? ''}`;
    item.iconPath = new vscode.ThemeIcon('mail');
    item.contextValue = 'mail';
    const parts = Object.keys(this.entry.setup ?? {}).length;
    item.description = this.entry.error
      ? 'failed'
      : `${parts} part${parts === 1 ? '' : 's'} checked`;
    return item;
  }

  children(): ResultNode[] {
    const { setup, error } = this.entry;
    if (error)
      return [new MessageNode(error.message, icons.error, `${error.code}: ${error.message}`)];
    const nodes: ResultNode[] = [];
    if (setup?.spf)
      nodes.push(
        isError(setup.spf)
          ? errorNode('SPF', setup.spf.error)
          : new SpfRootNode(this.entry.host, setup.spf),
      );
    if (setup?.dkim)
      nodes.push(
        isError(setup.dkim) ? errorNode('DKIM', setup.dkim.error) : new DkimNode(setup.dkim),
      );
    const records: Array<[string, MailRecordResult | undefined, boolean]> = [
      ['DMARC', setup?.dmarc, true],
      ['MTA-STS', setup?.mta_sts, false],
      ['TLS-RPT', setup?.tls_rpt, false],
      ['BIMI', setup?.bimi, false],
    ];
    for (const [label, result, expected] of records) {
      if (result === undefined) continue;
      if (result === null) {
        nodes.push(
          new MessageNode(`${label}: not published`, expected ? icons.warning : icons.empty),
        );
      } else if (isError(result)) {
        nodes.push(errorNode(label, result.error));
      } else {
        nodes.push(new MailRecordNode(label, result));
      }
    }
    if (setup?.transport !== undefined && setup.mta_sts_policy !== undefined) {
      nodes.push(
        isError(setup.transport)
          ? errorNode('Transport', setup.transport.error)
          : new TransportNode(setup.transport, setup.mta_sts_policy),
        isError(setup.mta_sts_policy)
          ? errorNode('MTA-STS policy', setup.mta_sts_policy.error)
          : new MtaStsPolicyNode(setup.mta_sts_policy),
      );
    }
    return nodes;
  }

  json(): unknown {
    return this.entry.setup ?? { error: this.entry.error };
  }
}

/** The host's own policy: look-up count against the limit of 10 in the label. */
export class SpfRootNode extends ResultNode {
  constructor(
    private readonly host: string,
    private readonly root: SpfRoot,
  ) {
    super(root);
  }

  toTreeItem(): vscode.TreeItem {
    const lookups = this.root.lookup_count ?? 0;
    const item = new vscode.TreeItem(
      `SPF ${lookups}/${SPF_MAX_LOOKUPS} look-ups`,
      vscode.TreeItemCollapsibleState.Expanded,
    );
    const problems = this.root.problems ?? [];
    item.description = `${this.root.query_count} DNS queries${problems.length ? ` · ${problems.length} problem${problems.length === 1 ? '' : 's'}` : ''}`;
    item.iconPath = problems.some((p) => p.severity === 'error')
      ? icons.error
      : problems.length > 0 || lookups > SPF_MAX_LOOKUPS
        ? icons.warning
        : new vscode.ThemeIcon('pass');
    item.tooltip = policyTooltip(this.host, this.root.policy);
    item.contextValue = 'spf';
    return item;
  }

  children(): ResultNode[] {
    return spfChildren(this.host, this.root, this.root.problems ?? []);
  }

  value(): string {
    return this.root.policy;
  }
}

class SpfIncludeNode extends ResultNode {
  constructor(
    private readonly node: SpfNode,
    private readonly problems: SpfProblem[],
  ) {
    super(node);
  }

  toTreeItem(): vscode.TreeItem {
    const hasChildren =
      this.node.ips.length + this.node.includes.length > 0 || this.ownProblems().length > 0;
    const item = new vscode.TreeItem(
      this.node.domain,
      hasChildren
        ? vscode.TreeItemCollapsibleState.Collapsed
        : vscode.TreeItemCollapsibleState.None,
    );
    // What including it brings: its own ranges and those of everything it includes.
    const ranges = subtreeRanges(this.node);
    item.description = [
      this.node.via ?? 'include',
      this.node.policy === '' ? 'no SPF record' : `${ranges} range${ranges === 1 ? '' : 's'}`,
    ].join(' · ');
    const own = this.ownProblems();
    // No policy at an include or redirect target is permerror (RFC 7208 sections 5.2, 6.1).
    item.iconPath =
      this.node.policy === '' || own.some((p) => p.severity === 'error')
        ? icons.error
        : own.length > 0
          ? icons.warning
          : new vscode.ThemeIcon(this.node.via === 'redirect' ? 'arrow-right' : 'references');
    item.tooltip = policyTooltip(this.node.domain, this.node.policy);
    item.contextValue = 'spf';
    return item;
  }

  private ownProblems(): SpfProblem[] {
    return this.problems.filter((p) => p.domain === this.node.domain);
  }

  children(): ResultNode[] {
    return spfChildren(this.node.domain, this.node, this.problems);
  }

  value(): string {
    return this.node.policy;
  }
}

function spfChildren(
  domain: string,
  node: Pick<SpfNode, 'ips' | 'includes'>,
  problems: SpfProblem[],
): ResultNode[] {
  return [
    ...problems.filter((p) => sameDomain(p.domain, domain)).map((p) => new SpfProblemNode(p)),
    ...node.ips.map((ip) => new ValueNode(ip.cidr_block, `IPv${ip.version}`, 'symbol-number')),
    ...node.includes.map((child) => new SpfIncludeNode(child, problems)),
  ];
}

function sameDomain(a: string, b: string): boolean {
  return a.replace(/\.$/, '').toLowerCase() === b.replace(/\.$/, '').toLowerCase();
}

function subtreeRanges(node: Pick<SpfNode, 'ips' | 'includes'>): number {
  return node.includes.reduce((sum, child) => sum + subtreeRanges(child), node.ips.length);
}

class SpfProblemNode extends MessageNode {
  constructor(problem: SpfProblem) {
    super(
      problem.term ? `${problem.message} (${problem.term})` : problem.message,
      problem.severity === 'error' ? icons.error : icons.warning,
      `${problem.code} at ${problem.domain}${problem.term ? `, term "${problem.term}"` : ''}: ${problem.message}`,
    );
  }
}

function policyTooltip(domain: string, policy: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString(`**${domain}**\n\n`);
  if (policy === '') md.appendMarkdown('No SPF record.');
  else md.appendCodeblock(policy, 'text');
  return md;
}

/** A copyable value: a range, a tag; "Copy as JSON" copies it too. */
class ValueNode extends LeafNode {
  json(): unknown {
    return this.value();
  }
}

class DkimNode extends ResultNode {
  constructor(private readonly result: DomainKeysResult) {
    super(result);
  }

  toTreeItem(): vscode.TreeItem {
    const count = this.result.domain_keys.length;
    return treeItem(
      'DKIM',
      count > 0 ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None,
      {
        description:
          count === 0 ? 'no keys at the selectors asked' : `${count} key${count === 1 ? '' : 's'}`,
        iconPath: count === 0 ? icons.warning : new vscode.ThemeIcon('key'),
        contextValue: 'dkim',
      },
    );
  }

  children(): ResultNode[] {
    return this.result.domain_keys.map((k) => new DkimKeyNode(k));
  }
}

class DkimKeyNode extends ResultNode {
  constructor(private readonly key: DkimEntry) {
    super(key);
  }

  toTreeItem(): vscode.TreeItem {
    const revoked = this.key.public_key === '';
    const weak = this.key.key_bits !== undefined && this.key.key_bits < WEAK_RSA_BITS;
    const md = jsonTooltip(this.key, this.key.domain);
    if (weak) md.appendMarkdown(`\n\n${this.key.key_bits}-bit RSA keys are weak; use 2048 bits.`);
    return treeItem(this.key.selector, vscode.TreeItemCollapsibleState.None, {
      description: revoked
        ? 'revoked (empty p=)'
        : `${this.key.key_type}${this.key.key_bits ? ` ${this.key.key_bits} bits` : ''}${weak ? ' · weak' : ''}`,
      iconPath: revoked || weak ? icons.warning : new vscode.ThemeIcon('key'),
      tooltip: md,
      contextValue: 'record',
    });
  }

  value(): string {
    return this.key.public_key;
  }
}

class MailRecordNode extends ResultNode {
  constructor(
    private readonly label: string,
    private readonly record: ParsedMailRecord,
  ) {
    super(record);
  }

  toTreeItem(): vscode.TreeItem {
    const errors = this.record.problems.filter((p) => p.severity === 'error').length;
    const warnings = this.record.problems.length - errors;
    const md = new vscode.MarkdownString(`**${this.record.name}**\n\n`);
    md.appendCodeblock(this.record.record, 'text');
    return treeItem(this.label, vscode.TreeItemCollapsibleState.Collapsed, {
      description: this.record.record,
      iconPath:
        errors > 0 ? icons.error : warnings > 0 ? icons.warning : new vscode.ThemeIcon('pass'),
      tooltip: md,
      contextValue: 'record',
    });
  }

  children(): ResultNode[] {
    return [
      ...this.record.problems.map(
        (p) =>
          new MessageNode(
            p.message,
            p.severity === 'error' ? icons.error : icons.warning,
            `${p.code}${p.tag ? ` (${p.tag}=)` : ''}: ${p.message}`,
          ),
      ),
      ...Object.entries(this.record.tags).map(
        ([tag, value]) => new ValueNode(`${tag}=${value}`, '', 'symbol-field'),
      ),
    ];
  }

  value(): string {
    return this.record.record;
  }
}
