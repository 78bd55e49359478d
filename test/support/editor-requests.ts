// VS Code's provider commands (vscode.executeCodeActionProvider and the like) answer "Canceled"
// when the set of providers changes while they run: opening a Markdown file activates the
// built-in Markdown extension, which registers its own providers and so cancels a request
// made at that moment. A user sees the light bulb come back; a test asks again. Any other
// error, and a fourth cancel in a row, is the test's failure.
import * as vscode from 'vscode';

const ATTEMPTS = 4;

function isCanceled(err: unknown): boolean {
  return err instanceof Error && (err.name === 'Canceled' || err.message === 'Canceled');
}

export async function askProviders<T>(command: string, ...args: unknown[]): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await vscode.commands.executeCommand<T>(command, ...args);
    } catch (err) {
      if (!isCanceled(err) || attempt === ATTEMPTS) throw err;
      // The registration that cancelled the request is over by the next turn of the host.
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }
}

/**
 * Code actions at a range, asked until `wanted` finds what it looks for (or 10 s pass; then the
 * last answer, for the test's assertion to show). A cancelled request does not always throw:
 * VS Code drops the actions of the providers that had not answered when the set of providers
 * changed, and returns the others' (the Markdown extension registers its own while it starts).
 */
export async function codeActionsUntil(
  uri: vscode.Uri,
  range: vscode.Range,
  wanted: (actions: vscode.CodeAction[]) => boolean,
): Promise<vscode.CodeAction[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const actions = await askProviders<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      uri,
      range,
    );
    if (wanted(actions) || Date.now() > deadline) return actions;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
