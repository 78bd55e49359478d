// The last link check in the results view: one summary node (errors, warnings, what was
// checked) with a child per kind of finding; clicking opens the Problems panel.
import * as vscode from 'vscode';
import type { CheckReport, FindingKind } from '../../../services/check/index';
import { icons, ResultNode } from './base';

const KIND_LABEL: Record<FindingKind, string> = {
  broken_link: 'Broken links',
  redirected_link: 'Permanently redirected',
  missing_fragment: 'Missing anchors',
  unresolvable_host: 'Hosts that do not resolve',
  registrable_domain: 'Domains anyone can register',
  expiring_domain: 'Domains expiring soon',
  dangling_record: 'Dangling zone records',
  timeout: 'Timed out',
  rate_limited: 'Rate limited',
  blocked_target: 'Blocked (private address)',
  lookup_failed: 'Look-ups that failed',
};

export class LinkCheckSummaryNode extends ResultNode {
  constructor(
    private readonly report: CheckReport,
    private readonly folder: string,
    private readonly at: Date,
  ) {
    super(report);
  }

  toTreeItem(): vscode.TreeItem {
    const errors = this.report.findings.filter((f) => f.severity === 'error').length;
    const warnings = this.report.findings.filter((f) => f.severity === 'warning').length;
    const item = new vscode.TreeItem(
      'Link check',
      this.report.findings.length > 0
        ? vscode.TreeItemCollapsibleState.Expanded
        : vscode.TreeItemCollapsibleState.None,
    );
    item.description =
      this.report.findings.length === 0
        ? `no findings · ${this.checked()}`
        : `${errors} ${errors === 1 ? 'error' : 'errors'}, ${warnings} ${warnings === 1 ? 'warning' : 'warnings'} · ${this.checked()}`;
    item.iconPath = errors > 0 ? icons.error : warnings > 0 ? icons.warning : icons.info;
    item.tooltip = `${this.folder}, ${this.at.toLocaleString()}`;
    item.contextValue = 'linkCheck';
    item.command = { command: 'workbench.actions.view.problems', title: 'Show Problems' };
    return item;
  }

  children(): ResultNode[] {
    const counts = new Map<FindingKind, number>();
    for (const f of this.report.findings) counts.set(f.kind, (counts.get(f.kind) ?? 0) + 1);
    return [...counts].map(([kind, count]) => new KindNode(kind, count));
  }

  private checked(): string {
    const { urls, hosts } = this.report.checked;
    return `${urls} URLs, ${hosts} hosts`;
  }
}

class KindNode extends ResultNode {
  constructor(
    private readonly kind: FindingKind,
    private readonly count: number,
  ) {
    super();
  }

  toTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(KIND_LABEL[this.kind], vscode.TreeItemCollapsibleState.None);
    item.description = String(this.count);
    item.tooltip = this.kind;
    item.command = { command: 'workbench.actions.view.problems', title: 'Show Problems' };
    return item;
  }
}
