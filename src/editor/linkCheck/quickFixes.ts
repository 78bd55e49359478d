// Quick fixes on link findings: a permanently redirected URL replaced by where it ends (its
// #fragment kept), and the WHOIS panel of a domain that expires or can be registered.
import * as vscode from 'vscode';
import { findingDomain } from '../../services/check/index';
import { LINK_SOURCE, rangeOf, type LinkDiagnostics } from './diagnostics';

export class LinkQuickFixes implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  constructor(private readonly diagnostics: LinkDiagnostics) {}

  provideCodeActions(
    document: vscode.TextDocument,
    _range: vscode.Range,
    context: vscode.CodeActionContext,
  ): vscode.CodeAction[] {
    const actions: vscode.CodeAction[] = [];
    for (const diagnostic of context.diagnostics) {
      if (diagnostic.source !== LINK_SOURCE) continue;
      const finding = this.diagnostics.findingOf(document.uri, diagnostic);
      if (!finding) continue;
      if (finding.kind === 'redirected_link' && finding.final_url) {
        const hash = finding.target.indexOf('#');
        const replacement =
          hash >= 0 && !finding.final_url.includes('#')
            ? `${finding.final_url}${finding.target.slice(hash)}`
            : finding.final_url;
        const action = new vscode.CodeAction(
          `Replace with ${replacement}`,
          vscode.CodeActionKind.QuickFix,
        );
        action.edit = new vscode.WorkspaceEdit();
        action.edit.replace(document.uri, rangeOf(finding), replacement);
        action.diagnostics = [diagnostic];
        action.isPreferred = true;
        actions.push(action);
      }
      if (finding.kind === 'expiring_domain' || finding.kind === 'registrable_domain') {
        const domain = findingDomain(finding.target);
        if (!domain) continue;
        const action = new vscode.CodeAction(
          `Open WHOIS of ${domain}`,
          vscode.CodeActionKind.QuickFix,
        );
        action.command = { command: 'hostlens.whois', title: 'WHOIS', arguments: [domain] };
        action.diagnostics = [diagnostic];
        actions.push(action);
      }
    }
    return actions;
  }
}
