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
