// The "HostLens" output channel. Nothing secret is ever passed here: tokens stay in
// SecretStorage and in the Authorization header of the HTTP backend.
import * as vscode from 'vscode';

export type Log = vscode.LogOutputChannel;

export function createLog(context: vscode.ExtensionContext): Log {
  const channel = vscode.window.createOutputChannel('HostLens', { log: true });
  context.subscriptions.push(channel);
  return channel;
}
