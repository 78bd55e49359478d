// Zone files in the editor: the load checks as you type (each edit re-parses only the entries
// it touches; diagnostics are published after a pause in typing, and a newer edit supersedes a
// pending publish), quick fixes where the fix is obvious, and the outline by owner name.
import * as vscode from 'vscode';
import type { Deps } from '../deps';
import {
  guessOrigin,
  ZoneSession,
  type SourceRange,
  type ZoneFix,
  type ZoneProblem,
} from '../../services/zone';
import { IncludeCache } from '../../services/zone-includes';
import { registerZoneFeatures } from './zoneFeatures';
import { registerCompareZone } from './compareZone';
import { registerCheckZoneCertificates } from './checkCertificates';

const LANGUAGE = 'dns-zone';
const SOURCE = 'HostLens zone';
/** Typing pauses this long before diagnostics are published again. */
const DEBOUNCE_MS = 150;

interface Tracked {
  session: ZoneSession;
  /** the document's lines as the session last saw them */
  lines: string[];
  timer?: NodeJS.Timeout;
  fixes: WeakMap<vscode.Diagnostic, ZoneFix>;
  /** the document's file on disk, whose $INCLUDEs are read ahead; undefined when unsaved */
  file?: string;
  includes?: IncludeCache;
}

export interface ZoneLanguage {
  /** the problems of an open zone document as last checked (tests) */
  problems(document: vscode.TextDocument): ZoneProblem[];
}

export function registerZoneLanguage(
  context: vscode.ExtensionContext,
  deps: Pick<Deps, 'history' | 'results' | 'services' | 'settings'>,
): ZoneLanguage {
  const collection = vscode.languages.createDiagnosticCollection('hostlens-zone');
  const tracked = new Map<string, Tracked>();

  const open = (document: vscode.TextDocument): Tracked | undefined => {
    if (document.languageId !== LANGUAGE) return undefined;
    const key = document.uri.toString();
    let t = tracked.get(key);
    if (t === undefined) {
      const text = document.getText();
      const file = document.uri.scheme === 'file' ? document.uri.fsPath : undefined;
      const includes = file === undefined ? undefined : new IncludeCache();
      t = {
        session: parse(document, file, includes),
        lines: text.split(/\r?\n/),
        fixes: new WeakMap(),
      };
      if (file !== undefined) t.file = file;
      if (includes !== undefined) t.includes = includes;
      tracked.set(key, t);
      // Published once its includes are in, not first with "still being read" on them.
      if (includes?.takeMissed()) void readIncludes(document, t);
      else publish(document, t);
    }
    return t;
  };

  /** A fresh session of the document; $INCLUDEs come from the cache (never a blocking read). */
  const parse = (
    document: vscode.TextDocument,
    file: string | undefined,
    includes: IncludeCache | undefined,
  ) => {
    const text = document.getText();
    return new ZoneSession(text, {
      origin: guessOrigin(text, file ?? document.uri.path),
      file,
      readInclude: includes?.readInclude,
    });
  };

  /** Reads the includes the document names, asynchronously, then parses it again with them. */
  const readIncludes = async (document: vscode.TextDocument, t: Tracked) => {
    if (t.includes === undefined || t.file === undefined) return;
    await t.includes.prefetch(document.getText(), t.file);
    if (tracked.get(document.uri.toString()) !== t) return; // closed meanwhile
    t.session = parse(document, t.file, t.includes);
    t.lines = document.getText().split(/\r?\n/);
    t.includes.takeMissed();
    publish(document, t);
  };

  const publish = (document: vscode.TextDocument, t: Tracked) => {
    const diagnostics: vscode.Diagnostic[] = [];
    for (const p of t.session.problems()) {
      if (p.file !== undefined) continue;
      const d = new vscode.Diagnostic(
        toRange(p.range),
        p.message,
        p.severity === 'error'
          ? vscode.DiagnosticSeverity.Error
          : vscode.DiagnosticSeverity.Warning,
      );
      d.code = p.code;
      d.source = SOURCE;
      if (p.fix !== undefined) t.fixes.set(d, p.fix);
      diagnostics.push(d);
    }
    collection.set(document.uri, diagnostics);
  };

  const changed = (event: vscode.TextDocumentChangeEvent) => {
    const t = tracked.get(event.document.uri.toString());
    if (t === undefined) {
      open(event.document);
      return;
    }
    for (const change of event.contentChanges) applyChange(t, change);
    // An edit that names a file not read yet: read it, then check the document again.
    if (t.includes?.takeMissed()) void readIncludes(event.document, t);
    clearTimeout(t.timer);
    t.timer = setTimeout(() => publish(event.document, t), DEBOUNCE_MS);
  };

  const close = (document: vscode.TextDocument) => {
    const key = document.uri.toString();
    clearTimeout(tracked.get(key)?.timer);
    tracked.delete(key);
    collection.delete(document.uri);
  };

  context.subscriptions.push(
    collection,
    vscode.workspace.onDidOpenTextDocument((d) => void open(d)),
    vscode.workspace.onDidChangeTextDocument(changed),
    vscode.workspace.onDidCloseTextDocument(close),
    vscode.languages.registerCodeActionsProvider(
      LANGUAGE,
      {
        provideCodeActions(document, _range, ctx) {
          const t = tracked.get(document.uri.toString());
          if (t === undefined) return [];
          const actions: vscode.CodeAction[] = [];
          for (const d of ctx.diagnostics) {
            const fix = t.fixes.get(d);
            if (fix === undefined) continue;
            const action = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
            action.edit = new vscode.WorkspaceEdit();
            action.edit.replace(document.uri, toRange(fix.range), fix.replacement);
            action.diagnostics = [d];
            action.isPreferred = true;
            actions.push(action);
          }
          return actions;
        },
      },
      { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] },
    ),
    vscode.languages.registerDocumentSymbolProvider(LANGUAGE, {
      provideDocumentSymbols(document) {
        const t = open(document);
        return t === undefined ? [] : symbols(t.session);
      },
    }),
  );
  registerZoneFeatures(context, (document) => open(document)?.session);
  registerCompareZone(context, (document) => open(document)?.session, deps);
  registerCheckZoneCertificates(context, (document) => open(document)?.session, deps);
  for (const document of vscode.workspace.textDocuments) open(document);

  return {
    problems: (document) => open(document)?.session.problems() ?? [],
  };
}

/** One edit of the document applied to the session as whole lines. */
function applyChange(t: Tracked, change: vscode.TextDocumentContentChangeEvent): void {
  const { start, end } = change.range;
  const first = t.lines[start.line] ?? '';
  const last = t.lines[end.line] ?? '';
  const text = first.slice(0, start.character) + change.text + last.slice(end.character);
  const replacement = text.split(/\r?\n/);
  t.lines.splice(start.line, end.line - start.line + 1, ...replacement);
  t.session.edit(start.line, end.line + 1, text);
}

function toRange(r: SourceRange): vscode.Range {
  return new vscode.Range(r.line, r.start, r.endLine ?? r.line, r.end);
}

/** The outline: one symbol per owner name, its records as children. */
function symbols(session: ZoneSession): vscode.DocumentSymbol[] {
  const byOwner = new Map<string, vscode.DocumentSymbol>();
  for (const r of session.records()) {
    if (r.file !== undefined) continue;
    const range = toRange(r.range);
    let owner = byOwner.get(r.key);
    if (owner === undefined) {
      owner = new vscode.DocumentSymbol(r.owner, '', vscode.SymbolKind.Namespace, range, range);
      byOwner.set(r.key, owner);
    } else {
      owner.range = owner.range.union(range);
    }
    owner.children.push(
      new vscode.DocumentSymbol(
        r.type,
        r.data,
        vscode.SymbolKind.Field,
        range,
        toRange(r.typeRange),
      ),
    );
  }
  return [...byOwner.values()];
}
