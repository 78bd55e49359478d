// Findings of the link check as diagnostics in the Problems panel, one collection for the
// workspace run and the re-checks on save. Each diagnostic keeps its finding (by position), so
// the quick fixes know the final URL or the domain.
import * as vscode from 'vscode';
import type { Finding } from '../../services/check/index';

export const LINK_SOURCE = 'HostLens links';

const SEVERITY: Record<Finding['severity'], vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

export class LinkDiagnostics implements vscode.Disposable {
  readonly collection = vscode.languages.createDiagnosticCollection('hostlens-links');
  private readonly findings = new Map<string, Finding[]>();

  /** Replaces every file's findings under `root` (a workspace run). */
  replaceAll(root: vscode.Uri, findings: readonly Finding[]): void {
    const prefix = root.toString().replace(/\/?$/, '/');
    for (const [key] of this.findings) {
      if (key.startsWith(prefix)) this.set(vscode.Uri.parse(key), []);
    }
    const byFile = new Map<string, Finding[]>();
    for (const f of findings) {
      const key = vscode.Uri.joinPath(root, f.file).toString();
      byFile.set(key, [...(byFile.get(key) ?? []), f]);
    }
    for (const [key, list] of byFile) this.set(vscode.Uri.parse(key), list);
  }

  /** Replaces one file's findings (a re-check on save). */
  set(uri: vscode.Uri, findings: readonly Finding[]): void {
    const key = uri.toString();
    if (findings.length === 0) {
      this.findings.delete(key);
      this.collection.delete(uri);
      return;
    }
    this.findings.set(key, [...findings]);
    this.collection.set(uri, findings.map(toDiagnostic));
  }

  /** The finding a diagnostic of this collection stands for. */
  findingOf(uri: vscode.Uri, diagnostic: vscode.Diagnostic): Finding | undefined {
    return this.findings
      .get(uri.toString())
      ?.find(
        (f) =>
          f.kind === codeOf(diagnostic) &&
          f.line - 1 === diagnostic.range.start.line &&
          f.column - 1 === diagnostic.range.start.character,
      );
  }

  dispose(): void {
    this.collection.dispose();
  }
}

export function rangeOf(f: Finding): vscode.Range {
  return new vscode.Range(f.line - 1, f.column - 1, f.line - 1, f.column - 1 + f.target.length);
}

function toDiagnostic(f: Finding): vscode.Diagnostic {
  const d = new vscode.Diagnostic(rangeOf(f), f.message, SEVERITY[f.severity]);
  d.source = LINK_SOURCE;
  d.code = f.kind;
  return d;
}

function codeOf(d: vscode.Diagnostic): string | undefined {
  const code = d.code;
  if (typeof code === 'string') return code;
  if (typeof code === 'object' && code !== null) return String(code.value);
  return undefined;
}
