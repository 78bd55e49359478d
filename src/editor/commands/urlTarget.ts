// What the web panel commands take from the editor: the URL (or host name) under the cursor
// or selected.
import * as vscode from 'vscode';
import { detectAtPosition } from '../editorContext';

export function urlFromEditor(editor: vscode.TextEditor | undefined): string | undefined {
  if (!editor) return undefined;
  const selected = editor.document.getText(editor.selection).trim();
  if (selected !== '' && !/\s/.test(selected)) return selected;
  const { item } = detectAtPosition(editor.document, editor.selection.active);
  if (item?.kind === 'url' || item?.kind === 'hostname') return item.value;
  return undefined;
}

/** The URL argument (a string or `{url}`), else a prompt prefilled from the editor. */
export async function urlArgumentOrPrompt(
  target: unknown,
  title: string,
): Promise<string | undefined> {
  if (typeof target === 'string' && target.trim() !== '') return target.trim();
  if (typeof target === 'object' && target !== null) {
    const url = (target as { url?: unknown }).url;
    if (typeof url === 'string' && url.trim() !== '') return url.trim();
  }
  const answer = await vscode.window.showInputBox({
    title,
    prompt: 'URL (https:// is added when there is no scheme)',
    placeHolder: 'https://example.com/',
    value: urlFromEditor(vscode.window.activeTextEditor) ?? '',
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() === '' ? 'Enter a URL' : undefined),
  });
  return answer === undefined || answer.trim() === '' ? undefined : answer.trim();
}
