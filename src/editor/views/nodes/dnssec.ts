// The DNSSEC node of a looked-up host (shown when the answer carries a verdict): the status
// with its reason, the warnings, then the chain of trust zone by zone with keys and signatures.
import * as vscode from 'vscode';
import type { DnssecLink, DnssecResult } from '../../../contract/shapes';
import { icons, MessageNode, ResultNode } from './base';
import { dnssecWarnings, notAResolver, NOT_CHECKED_TEXT, STATUS_TEXT } from './dnssecFacts';

const STATUS_ICON: Record<DnssecResult['status'], vscode.ThemeIcon> = {
  secure: new vscode.ThemeIcon('lock', new vscode.ThemeColor('testing.iconPassed')),
  insecure: new vscode.ThemeIcon('unlock'),
  bogus: icons.error,
  indeterminate: new vscode.ThemeIcon('question'),
};

export class DnssecNode extends ResultNode {
  constructor(
    private readonly id: string,
    private readonly result: DnssecResult,
  ) {
    super(result);
  }

  toTreeItem(): vscode.TreeItem {
    const quiet = notAResolver(this.result);
    const item = new vscode.TreeItem(
      quiet ? 'DNSSEC: not checked' : STATUS_TEXT[this.result.status],
      quiet ? vscode.TreeItemCollapsibleState.None : vscode.TreeItemCollapsibleState.Collapsed,
    );
    item.id = `dnssec:${this.id}`;
    item.description = quiet ? 'not a validating resolver' : this.result.reason;
    item.tooltip = quiet ? `${NOT_CHECKED_TEXT}: ${this.result.reason}` : this.result.reason;
    item.iconPath = quiet ? icons.empty : STATUS_ICON[this.result.status];
    item.contextValue = 'dnssec';
    return item;
  }

  children(): ResultNode[] {
    const warnings = dnssecWarnings(this.result, Date.now()).map(
      (w) => new MessageNode(w, icons.warning),
    );
    const zones = this.result.chain.map((link) => new ZoneNode(this.id, link));
    const signatures = (this.result.signatures ?? []).map(
      (s) =>
        new MessageNode(
          `RRSIG ${s.name} ${s.type}: key ${s.key_tag}, algorithm ${s.algorithm}`,
          new vscode.ThemeIcon('key'),
          `Signed by ${s.signer}, valid ${s.inception} to ${s.expiration}`,
        ),
    );
    return [...warnings, ...zones, ...signatures];
  }
}

class ZoneNode extends ResultNode {
  constructor(
    private readonly id: string,
    private readonly link: DnssecLink,
  ) {
    super(link);
  }

  toTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.link.zone, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = `dnssec:${this.id}:${this.link.zone}`;
    item.description =
      this.link.dnskey.length === 0 && this.link.ds.length === 0
        ? 'unsigned delegation'
        : `${this.link.ds.length} DS, ${this.link.dnskey.length} DNSKEY`;
    item.iconPath = new vscode.ThemeIcon('symbol-namespace');
    return item;
  }

  children(): ResultNode[] {
    const ds = this.link.ds.map(
      (d) =>
        new MessageNode(
          `DS ${d.key_tag} algorithm ${d.algorithm} digest ${d.digest_type}`,
          new vscode.ThemeIcon('link'),
          d.digest,
        ),
    );
    const keys = this.link.dnskey.map(
      (k) =>
        new MessageNode(
          `DNSKEY ${k.key_tag} algorithm ${k.algorithm}, ${k.bits} bits, flags ${k.flags}`,
          new vscode.ThemeIcon('key'),
        ),
    );
    const sig = this.link.rrsig;
    const rrsig =
      sig === undefined
        ? []
        : [
            new MessageNode(
              `RRSIG over the DNSKEY set: key ${sig.key_tag}, until ${sig.expiration}`,
              new vscode.ThemeIcon('pass'),
              `Valid ${sig.inception} to ${sig.expiration}`,
            ),
          ];
    return [...ds, ...keys, ...rrsig];
  }
}
