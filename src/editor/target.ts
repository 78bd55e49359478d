// Which host or URL the user means, in one place for every command: the argument a link, a
// tree node or another command passed (a string, `{host}` or `{url}`); else a prompt
// prefilled with the editor's selection or what detection finds under the cursor (a relative
// zone-file name completed with its $ORIGIN, an e-mail address's domain, a URL's host).
import * as vscode from 'vscode';
import { detectAtPosition } from './editorContext';

export type TargetKind = 'host' | 'url';

const HOSTISH = /[\p{L}\p{N}_*.:-]+/u;

/** The passed argument: a non-empty string, or an object's `host`/`url` field. */
export function targetArgument(target: unknown, kind: TargetKind): string | undefined {
  const value =
    typeof target === 'object' && target !== null
      ? (target as Record<string, unknown>)[kind]
      : target;
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** The host name under the cursor or selected, if any. */
export function hostFromEditor(editor: vscode.TextEditor | undefined): string | undefined {
  if (!editor) return undefined;
  const selected = selection(editor);
  if (selected !== undefined) return selected;
  const { item } = detectAtPosition(editor.document, editor.selection.active);
  if (item?.kind === 'url') return urlHost(item.value);
  if (item) return item.value.replace(/^\*\./, '');
  const range = editor.document.getWordRangeAtPosition(editor.selection.active, HOSTISH);
  const word = range ? editor.document.getText(range).replace(/^[.:]+|[.:]+$/g, '') : '';
  return word === '' ? undefined : word;
}

/** The URL (or host name, which the web operations accept) under the cursor or selected. */
export function urlFromEditor(editor: vscode.TextEditor | undefined): string | undefined {
  if (!editor) return undefined;
  const selected = selection(editor);
  if (selected !== undefined) return selected;
  const { item } = detectAtPosition(editor.document, editor.selection.active);
  if (item?.kind === 'url' || item?.kind === 'hostname') return item.value;
  return undefined;
}

export interface TargetPrompt {
  title: string;
  /** what to type; a sensible default per kind when absent */
  prompt?: string;
}

const PROMPTS: Record<TargetKind, { prompt: string; placeHolder: string; empty: string }> = {
  host: { prompt: 'Domain name', placeHolder: 'example.com', empty: 'Enter a domain name' },
  url: {
    prompt: 'URL (https:// is added when there is no scheme)',
    placeHolder: 'https://example.com/',
    empty: 'Enter a URL',
  },
};

/** The argument when there is one, else the user's answer to a prefilled prompt. */
export async function askTarget(
  kind: TargetKind,
  target: unknown,
  ask: TargetPrompt,
): Promise<string | undefined> {
  const passed = targetArgument(target, kind);
  if (passed !== undefined) return passed;
  const editor = vscode.window.activeTextEditor;
  const texts = PROMPTS[kind];
  const typed = await vscode.window.showInputBox({
    title: ask.title,
    prompt: ask.prompt ?? texts.prompt,
    placeHolder: texts.placeHolder,
    value: (kind === 'host' ? hostFromEditor(editor) : urlFromEditor(editor)) ?? '',
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() === '' ? texts.empty : undefined),
  });
  return typed?.trim() || undefined;
}

function selection(editor: vscode.TextEditor): string | undefined {
  const selected = editor.document.getText(editor.selection).trim();
  return selected !== '' && !/\s/.test(selected) ? selected : undefined;
}

function urlHost(url: string): string | undefined {
  try {
    const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `https://${url}`;
    return new URL(withScheme).hostname.replace(/^\[|\]$/g, '') || undefined;
  } catch {
    return undefined;
  }
}
