// Runs one look-up under a cancellable progress notification; the AbortSignal it passes
// fires when the user cancels.
import * as vscode from 'vscode';

export function withLookupProgress<T>(
  title: string,
  run: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  return Promise.resolve(
    vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title, cancellable: true },
      async (_progress, token) => {
        const controller = new AbortController();
        const subscription = token.onCancellationRequested(() => controller.abort());
        try {
          return await run(controller.signal);
        } finally {
          subscription.dispose();
        }
      },
    ),
  );
}
