// The host a command works on: the argument a link or caller passed, else asked for, with the
// editor's selection or the name under the cursor prefilled.
import * as vscode from 'vscode';
import { hostFromEditor } from './editorTarget';

export async function askHost(
  target: unknown,
  title: string,
  prompt: string,
): Promise<string | undefined> {
  if (typeof target === 'string' && target.trim() !== '') return target.trim();
  const host = await vscode.window.showInputBox({
    title,
    prompt,
    placeHolder: 'example.com',
    value: hostFromEditor(vscode.window.activeTextEditor) ?? '',
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() === '' ? 'Enter a domain' : undefined),
  });
  return host?.trim() || undefined;
}
