// SPF policies in open documents: syntax and RFC 7208 problems as you type, and on save the
// whole look-up count (this policy's terms plus those of every include and redirect target,
// resolved through the current backend).
import * as vscode from 'vscode';
import type { Deps } from '../deps';
import {
  countLookupTerms,
  findSpfPolicies,
  lintSpf,
  lookupTargetTerms,
  type SpfFinding,
} from '../../detect/spf-lint';
import { toLookupError } from '../../contract/errors';
import { SPF_MAX_LOOKUPS } from '../../contract/limits';

const SOURCE = 'HostLens SPF';
/** Typing pauses this long before the document is checked again. */
const DEBOUNCE_MS = 300;
/** Very large files (logs, dumps) are not scanned. */
const MAX_LINES = 20000;

const SEVERITY: Record<SpfFinding['severity'], vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

export interface SpfDiagnostics {
  /** Recomputes the syntax diagnostics and, with `countLookups`, the look-up counts. */
  check(document: vscode.TextDocument, countLookups: boolean): Promise<void>;
  collection: vscode.DiagnosticCollection;
}

export function registerSpfDiagnostics(
  context: vscode.ExtensionContext,
  deps: Deps,
): SpfDiagnostics {
  const collection = vscode.languages.createDiagnosticCollection('hostlens-spf');
  const lookupCounts = new Map<string, vscode.Diagnostic[]>();
  const timers = new Map<string, NodeJS.Timeout>();
  const inFlight = new Map<string, AbortController>();

  const publish = (document: vscode.TextDocument) => {
    const key = document.uri.toString();
    collection.set(document.uri, [
      ...syntaxDiagnostics(document),
      ...(lookupCounts.get(key) ?? []),
    ]);
  };

  const check = async (document: vscode.TextDocument, countLookups: boolean) => {
    if (document.lineCount > MAX_LINES || !/v=spf1/i.test(document.getText())) {
      collection.delete(document.uri);
      return;
    }
    const key = document.uri.toString();
    if (countLookups) {
      inFlight.get(key)?.abort();
      const controller = new AbortController();
      inFlight.set(key, controller);
      try {
        lookupCounts.set(key, await lookupCountDiagnostics(deps, document, controller.signal));
      } finally {
        if (inFlight.get(key) === controller) inFlight.delete(key);
      }
      if (controller.signal.aborted) return;
    }
    publish(document);
  };

  const schedule = (document: vscode.TextDocument) => {
    const key = document.uri.toString();
    clearTimeout(timers.get(key));
    // Edits make the on-save counts stale: they come back at the next save.
    lookupCounts.delete(key);
    timers.set(
      key,
      setTimeout(() => void check(document, false), DEBOUNCE_MS),
    );
  };

  context.subscriptions.push(
    collection,
    vscode.workspace.onDidOpenTextDocument((d) => void check(d, false)),
    vscode.workspace.onDidChangeTextDocument((e) => schedule(e.document)),
    vscode.workspace.onDidSaveTextDocument((d) => void check(d, true)),
    vscode.workspace.onDidCloseTextDocument((d) => {
      const key = d.uri.toString();
      clearTimeout(timers.get(key));
      inFlight.get(key)?.abort();
      lookupCounts.delete(key);
      collection.delete(d.uri);
    }),
    { dispose: () => timers.forEach((t) => clearTimeout(t)) },
  );
  for (const document of vscode.workspace.textDocuments) void check(document, false);
  return { check, collection };
}

function syntaxDiagnostics(document: vscode.TextDocument): vscode.Diagnostic[] {
  const diagnostics: vscode.Diagnostic[] = [];
  for (let line = 0; line < document.lineCount; line++) {
    const text = document.lineAt(line).text;
    if (!/v=spf1/i.test(text)) continue;
    for (const policy of findSpfPolicies(text)) {
      for (const finding of lintSpf(policy)) {
        const diagnostic = new vscode.Diagnostic(
          new vscode.Range(line, finding.start, line, finding.end),
          finding.message,
          SEVERITY[finding.severity],
        );
        diagnostic.source = SOURCE;
        diagnostic.code = finding.code;
        diagnostics.push(diagnostic);
      }
    }
  }
  return diagnostics;
}

async function lookupCountDiagnostics(
  deps: Deps,
  document: vscode.TextDocument,
  signal: AbortSignal,
): Promise<vscode.Diagnostic[]> {
  const domain = deps.services().domain;
  const server = deps.settings().dnsServer;
  const diagnostics: vscode.Diagnostic[] = [];
  for (let line = 0; line < document.lineCount; line++) {
    const text = document.lineAt(line).text;
    if (!/v=spf1/i.test(text)) continue;
    for (const policy of findSpfPolicies(text)) {
      const own = countLookupTerms(policy.text);
      let nested = 0;
      const unresolved: string[] = [];
      await Promise.all(
        lookupTargetTerms(policy).map(async (term) => {
          try {
            const tree = await domain.senderPolicyRanges({ host: term.target, server }, { signal });
            nested += tree.lookup_count ?? 0;
          } catch (err) {
            const error = toLookupError(err);
            if (error.code === 'not_found') {
              // RFC 7208 sections 5.2 and 6.1: an include or redirect target without an SPF
              // record makes every receiver answer permerror, as `spf-check` and the tree say.
              diagnostics.push(
                termDiagnostic(
                  line,
                  term,
                  `${term.via === 'include' ? 'include:' : 'redirect='}${term.target} has no SPF record; receivers give permerror`,
                  vscode.DiagnosticSeverity.Error,
                  `missing_${term.via}_target`,
                ),
              );
            } else {
              unresolved.push(`${term.target} (${error.code})`);
            }
          }
        }),
      );
      if (signal.aborted) return [];
      const total = own + nested;
      const range = new vscode.Range(
        line,
        policy.offsets[0] ?? 0,
        line,
        (policy.offsets.at(-1) ?? 0) + 1,
      );
      const message =
        `SPF look-ups: ${total}/${SPF_MAX_LOOKUPS} (${own} in this policy, ${nested} in its includes)` +
        (unresolved.length > 0 ? `; not resolved: ${unresolved.join(', ')}` : '');
      const diagnostic = new vscode.Diagnostic(
        range,
        message,
        total > SPF_MAX_LOOKUPS
          ? vscode.DiagnosticSeverity.Error
          : vscode.DiagnosticSeverity.Information,
      );
      diagnostic.source = SOURCE;
      diagnostic.code = total > SPF_MAX_LOOKUPS ? 'spf_too_many_lookups' : 'spf_lookup_count';
      diagnostics.push(diagnostic);
    }
  }
  return diagnostics;
}

function termDiagnostic(
  line: number,
  term: { start: number; end: number },
  message: string,
  severity: vscode.DiagnosticSeverity,
  code: string,
): vscode.Diagnostic {
  const diagnostic = new vscode.Diagnostic(
    new vscode.Range(line, term.start, line, term.end),
    message,
    severity,
  );
  diagnostic.source = SOURCE;
  diagnostic.code = code;
  return diagnostic;
}
