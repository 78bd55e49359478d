// Zone-file language features over the checked session: the SOA serial lens with "Increment
// serial", go to definition and find references for names of the zone, hover on a record
// type, completion of types and $ directives, format document, and folding of parenthesised
// records.
import type { ZoneSessionOf } from './zoneDiagnostics';
import * as vscode from 'vscode';
import {
  formatZone,
  nextSerial,
  RECORD_TYPE_INFO,
  type SourceRange,
  type ZoneRecord,
  type ZoneSession,
} from '../../services/zone';

const LANGUAGE = 'dns-zone';
export const INCREMENT_SERIAL = 'hostlens.incrementSerial';

const DIRECTIVES: Record<string, string> = {
  $ORIGIN: 'Sets the origin: relative names below are completed with it (RFC 1035 section 5.1).',
  $TTL: 'Sets the TTL of records that give none (RFC 2308 section 4).',
  $INCLUDE: 'Reads another file here, optionally with its own origin (RFC 1035 section 5.1).',
  $GENERATE: 'Makes a series of records: $GENERATE 1-10 host-$ A 192.0.2.$ (BIND).',
};

function toRange(r: SourceRange): vscode.Range {
  return new vscode.Range(r.line, r.start, r.endLine ?? r.line, r.end);
}

function contains(r: SourceRange | undefined, pos: vscode.Position): boolean {
  return r !== undefined && toRange(r).contains(pos);
}

/** The zone name under the cursor: a record's owner or its target, as a key. */
function nameAt(session: ZoneSession, pos: vscode.Position): string | undefined {
  for (const r of session.recordsOnLines(pos.line, pos.line)) {
    if (contains(r.ownerRange, pos)) return r.key;
    if (contains(r.targetRange, pos)) return r.target;
  }
  return undefined;
}

/** Where the file itself writes the records of owner `key`, in file order. */
function ownerLocations(uri: vscode.Uri, session: ZoneSession, key: string): vscode.Location[] {
  return session
    .recordsAt(key)
    .filter((r) => r.file === undefined)
    .sort(inFileOrder)
    .map((r) => new vscode.Location(uri, toRange(r.ownerRange ?? r.range)));
}

/** An owner's records come in the order they were added, which edits leave out of file order. */
function inFileOrder(a: ZoneRecord, b: ZoneRecord): number {
  return a.range.line - b.range.line || a.range.start - b.range.start;
}

export function registerZoneFeatures(
  context: vscode.ExtensionContext,
  sessionOf: ZoneSessionOf,
): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(
      INCREMENT_SERIAL,
      async (uri: vscode.Uri, range: vscode.Range, serial: number) => {
        const edit = new vscode.WorkspaceEdit();
        edit.replace(uri, range, String(nextSerial(serial)));
        await vscode.workspace.applyEdit(edit);
      },
    ),
    vscode.languages.registerCodeLensProvider(LANGUAGE, {
      provideCodeLenses(document) {
        const session = sessionOf(document);
        if (session === undefined) return [];
        return session
          .recordsOfTypes('SOA')
          .filter((r) => r.serialRange !== undefined && r.file === undefined)
          .map((r) => {
            const range = toRange(r.serialRange!);
            return new vscode.CodeLens(range, {
              title: `Serial ${r.serial}: Increment serial`,
              command: INCREMENT_SERIAL,
              arguments: [document.uri, range, r.serial],
            });
          });
      },
    }),
    vscode.languages.registerDefinitionProvider(LANGUAGE, {
      provideDefinition(document, position) {
        const session = sessionOf(document);
        const key = session && nameAt(session, position);
        return key === undefined ? [] : ownerLocations(document.uri, session!, key);
      },
    }),
    vscode.languages.registerReferenceProvider(LANGUAGE, {
      provideReferences(document, position, ctx) {
        const session = sessionOf(document);
        const key = session && nameAt(session, position);
        if (key === undefined) return [];
        const refs = session!
          .recordsPointingAt(key)
          .filter((r) => r.file === undefined && r.targetRange !== undefined)
          .map((r) => new vscode.Location(document.uri, toRange(r.targetRange!)));
        return ctx.includeDeclaration
          ? [...ownerLocations(document.uri, session!, key), ...refs]
          : refs;
      },
    }),
    vscode.languages.registerHoverProvider(LANGUAGE, {
      provideHover(document, position) {
        const range = document.getWordRangeAtPosition(position, /\$?[A-Za-z0-9]+/);
        if (range === undefined) return undefined;
        const word = document.getText(range).toUpperCase();
        if (DIRECTIVES[word] !== undefined) return new vscode.Hover(DIRECTIVES[word], range);
        const info = RECORD_TYPE_INFO[word];
        const session = sessionOf(document);
        // Only where the word is a record's type, not an owner that happens to spell "MX".
        const isType =
          session
            ?.recordsOnLines(position.line, position.line)
            .some((r) => contains(r.typeRange, position)) ?? false;
        if (info === undefined || !isType) return undefined;
        return new vscode.Hover(
          new vscode.MarkdownString(
            `**${word}** (type ${info.code}): ${info.summary}. ${info.rfc}.`,
          ),
          range,
        );
      },
    }),
    vscode.languages.registerCompletionItemProvider(
      LANGUAGE,
      {
        provideCompletionItems(document, position) {
          const before = document.lineAt(position.line).text.slice(0, position.character);
          if (/^\$\w*$/.test(before)) {
            return Object.entries(DIRECTIVES).map(([name, doc]) => {
              const item = new vscode.CompletionItem(name, vscode.CompletionItemKind.Keyword);
              item.documentation = doc;
              item.range = new vscode.Range(position.line, 0, position.line, position.character);
              return item;
            });
          }
          return Object.entries(RECORD_TYPE_INFO).map(([name, info]) => {
            const item = new vscode.CompletionItem(name, vscode.CompletionItemKind.EnumMember);
            item.detail = `${info.summary} (${info.rfc})`;
            return item;
          });
        },
      },
      '$',
    ),
    vscode.languages.registerDocumentFormattingEditProvider(LANGUAGE, {
      provideDocumentFormattingEdits(document) {
        const text = document.getText();
        const formatted = formatZone(text);
        if (formatted === text) return [];
        const all = new vscode.Range(document.positionAt(0), document.positionAt(text.length));
        return [vscode.TextEdit.replace(all, formatted)];
      },
    }),
    vscode.languages.registerFoldingRangeProvider(LANGUAGE, {
      provideFoldingRanges(document) {
        const session = sessionOf(document);
        if (session === undefined) return [];
        const seen = new Set<number>();
        const out: vscode.FoldingRange[] = [];
        for (const r of session.multiLineRecords()) {
          if (seen.has(r.range.line)) continue;
          seen.add(r.range.line);
          out.push(new vscode.FoldingRange(r.range.line, r.range.endLine ?? r.range.line));
        }
        return out;
      },
    }),
  );
}
