// The diagnostics of a command run on request over a zone file (certificates of its names,
// drift from the live zone): one collection per command, dropped for a file when it closes.
import * as vscode from 'vscode';
import type { ZoneSession } from '../../services/zone';

/** How a zone command finds the session of a document: undefined when it is no zone file. */
export type ZoneSessionOf = (document: vscode.TextDocument) => ZoneSession | undefined;

/** A new collection `name`, disposed with the extension; a closed document's entries go. */
export function zoneCommandDiagnostics(
  context: vscode.ExtensionContext,
  name: string,
): vscode.DiagnosticCollection {
  const collection = vscode.languages.createDiagnosticCollection(name);
  context.subscriptions.push(
    collection,
    vscode.workspace.onDidCloseTextDocument((d) => collection.delete(d.uri)),
  );
  return collection;
}
