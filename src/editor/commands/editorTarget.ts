// The hostname the user means in the editor: the selection, else what detection finds under
// the cursor (a relative name in a zone file completed with its $ORIGIN, an e-mail address's
// domain, a URL's host), else the word there.
import type * as vscode from 'vscode';
import { detectAtPosition } from '../editorContext';

const HOSTISH = /[\p{L}\p{N}_*.:-]+/u;

export function hostFromEditor(editor: vscode.TextEditor | undefined): string | undefined {
  if (!editor) return undefined;
  const selected = editor.document.getText(editor.selection).trim();
  if (selected !== '' && !/\s/.test(selected)) return selected;
  const { item } = detectAtPosition(editor.document, editor.selection.active);
  if (item?.kind === 'url') return urlHost(item.value);
  if (item) return item.value.replace(/^\*\./, '');
  const range = editor.document.getWordRangeAtPosition(editor.selection.active, HOSTISH);
  const word = range ? editor.document.getText(range).replace(/^[.:]+|[.:]+$/g, '') : '';
  return word === '' ? undefined : word;
}

function urlHost(url: string): string | undefined {
  try {
    const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `https://${url}`;
    return new URL(withScheme).hostname.replace(/^\[|\]$/g, '') || undefined;
  } catch {
    return undefined;
  }
}
