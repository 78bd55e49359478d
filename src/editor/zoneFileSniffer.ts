// VS Code picks a language from the file name, never the content, so `db.example.com` or
// `zone.db` opens as plain text. When such a file reads like a zone file, switch it to dns-zone.
import * as vscode from 'vscode';
import { isZoneFileNameCandidate, looksLikeZoneFile } from '../detect';

export function registerZoneFileSniffer(context: vscode.ExtensionContext): void {
  const sniff = (document: vscode.TextDocument) => {
    if (document.languageId !== 'plaintext' || document.uri.scheme !== 'file') return;
    if (!isZoneFileNameCandidate(document.fileName)) return;
    if (!looksLikeZoneFile(document.getText())) return;
    void vscode.languages.setTextDocumentLanguage(document, 'dns-zone');
  };
  context.subscriptions.push(vscode.workspace.onDidOpenTextDocument(sniff));
  for (const document of vscode.workspace.textDocuments) sniff(document);
}
