// What a position in a document means to detection: its language and, in a zone file, the
// $ORIGIN in effect there. Shared by hovers and the "at cursor" commands so both read a
// relative name in a zone file the same way.
import type * as vscode from 'vscode';
import {
  detectAt,
  originFromFileName,
  zoneOriginAt,
  type DetectContext,
  type Detected,
} from '../detect';

export function detectContextAt(document: vscode.TextDocument, line: number): DetectContext {
  if (document.languageId !== 'dns-zone') return { languageId: document.languageId };
  // Lines up to this one are enough for $ORIGIN tracking, without copying the whole file.
  const lines: string[] = [];
  for (let i = 0; i <= line; i++) lines.push(document.lineAt(i).text);
  const origin = zoneOriginAt(lines, line, originFromFileName(document.fileName));
  return { languageId: document.languageId, origin };
}

export function detectAtPosition(
  document: vscode.TextDocument,
  position: vscode.Position,
): { item: Detected | undefined; context: DetectContext } {
  const context = detectContextAt(document, position.line);
  const item = detectAt(document.lineAt(position.line).text, position.character, context);
  return { item, context };
}
