// What the panel commands take from the editor: the URL under the cursor (or selected) for
// the web views, the registrable name under the cursor for WHOIS.
import * as vscode from 'vscode';
import { detectAt } from '../detect';
import { hostFromEditor } from './editorTarget';

export function urlFromEditor(editor: vscode.TextEditor | undefined): string | undefined {
  if (!editor) return undefined;
  const selected = editor.document.getText(editor.selection).trim();
  if (selected !== '' && !/\s/.test(selected)) return selected;
  const item = detected(editor);
  if (item?.kind === 'url' || item?.kind === 'hostname') return item.value;
  return undefined;
}

export function whoisHostFromEditor(editor: vscode.TextEditor | undefined): string | undefined {
  if (!editor) return undefined;
  if (!editor.selection.isEmpty) return hostFromEditor(editor);
  const item = detected(editor);
  if (item?.kind === 'url') {
    try {
      const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(item.value)
        ? item.value
        : `https://${item.value}`;
      return new URL(withScheme).hostname;
    } catch {
      return undefined;
    }
  }
  if (item?.kind === 'hostname' || item?.kind === 'email') return item.value.replace(/^\*\./, '');
  return hostFromEditor(editor);
}

function detected(editor: vscode.TextEditor) {
  const position = editor.selection.active;
  const line = editor.document.lineAt(position.line).text;
  return detectAt(line, position.character, { languageId: editor.document.languageId });
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
