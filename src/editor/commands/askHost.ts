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
  // A results-tree host node (or any caller) passes {host}.
  const host = (target as { host?: unknown } | undefined)?.host;
  if (typeof host === 'string' && host.trim() !== '') return host.trim();
  const typed = await vscode.window.showInputBox({
    title,
    prompt,
    placeHolder: 'example.com',
    value: hostFromEditor(vscode.window.activeTextEditor) ?? '',
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() === '' ? 'Enter a domain' : undefined),
  });
  return typed?.trim() || undefined;
}
