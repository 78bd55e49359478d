// The hostname the user means in the editor: the selection, else the name under the cursor.
import type * as vscode from 'vscode';

const HOSTISH = /[\p{L}\p{N}_*.:-]+/u;

export function hostFromEditor(editor: vscode.TextEditor | undefined): string | undefined {
  if (!editor) return undefined;
  const selected = editor.document.getText(editor.selection).trim();
  if (selected !== '' && !/\s/.test(selected)) return selected;
  const range = editor.document.getWordRangeAtPosition(editor.selection.active, HOSTISH);
  const word = range ? editor.document.getText(range).replace(/^[.:]+|[.:]+$/g, '') : '';
  return word === '' ? undefined : word;
}
