// "HostLens: Look Up DNS Records…": one box for the host (prefilled from the editor, checked
// as the user types); Enter looks up every type on the configured nameserver, and the box's
// button goes on to choose the types and the nameserver.
import * as vscode from 'vscode';
import type { Deps } from '../deps';
import { RECORD_TYPES } from '../../contract/shapes';
import { hostProblem } from '../../services/names';
import { runDnsLookup, type DnsLookupRequest } from '../lookups/dnsLookup';
import { hostFromEditor, targetArgument } from '../target';

const CHOOSE_TYPES_TOOLTIP = 'Choose record types and nameserver…';

export function registerLookUpDnsRecords(context: vscode.ExtensionContext, deps: Deps): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('hostlens.lookUpDnsRecords', async (target?: unknown) => {
      // From a hover link or another command: look up straight away, no questions.
      const direct = directRequest(target, deps);
      if (direct) return runDnsLookup(deps, direct);
      const first = await askHost(deps.settings().dnsServer);
      if (!first) return;
      const host = first.host;
      if (!first.choose) return runDnsLookup(deps, { host, server: deps.settings().dnsServer });
      const picked = await vscode.window.showQuickPick(
        RECORD_TYPES.map((type) => ({ label: type, picked: true })),
        {
          title: 'HostLens: Look Up DNS Records (2/3): record types',
          canPickMany: true,
          ignoreFocusOut: true,
        },
      );
      if (!picked || picked.length === 0) return;
      const server = await vscode.window.showInputBox({
        title: 'HostLens: Look Up DNS Records (3/3): nameserver',
        prompt: 'Nameserver address or name; leave empty for the configured default',
        placeHolder: deps.settings().dnsServer ?? 'system resolvers',
        value: deps.settings().dnsServer ?? '',
        ignoreFocusOut: true,
      });
      if (server === undefined) return;
      const types = picked.length === RECORD_TYPES.length ? undefined : picked.map((p) => p.label);
      return runDnsLookup(deps, {
        host: host.trim(),
        types,
        server: server.trim() === '' ? undefined : server.trim(),
      });
    }),
  );
}

/**
 * The first step: the host, validated on every keystroke with the look-up's own rules. Enter
 * answers `{host, choose: false}`; the title bar button `{host, choose: true}`.
 */
function askHost(
  server: string | undefined,
): Promise<{ host: string; choose: boolean } | undefined> {
  const box = vscode.window.createInputBox();
  box.title = 'HostLens: Look Up DNS Records';
  box.prompt = `Hostname or IP address. Enter looks up every record type on ${server ?? 'the system resolvers'}.`;
  box.placeholder = 'example.com';
  box.value = hostFromEditor(vscode.window.activeTextEditor) ?? '';
  box.ignoreFocusOut = true;
  box.buttons = [{ iconPath: new vscode.ThemeIcon('list-filter'), tooltip: CHOOSE_TYPES_TOOLTIP }];
  const validate = (value: string): string | undefined =>
    value.trim() === '' ? undefined : hostProblem(value.trim());
  box.validationMessage = validate(box.value);
  return new Promise((resolve) => {
    let settled = false;
    const finish = (answer: { host: string; choose: boolean } | undefined) => {
      if (settled) return;
      settled = true;
      resolve(answer);
      box.dispose();
    };
    const submit = (choose: boolean) => {
      const host = box.value.trim();
      const problem = host === '' ? 'Enter a hostname or an IP address' : hostProblem(host);
      box.validationMessage = problem;
      if (problem === undefined) finish({ host, choose });
    };
    box.onDidChangeValue((value) => (box.validationMessage = validate(value)));
    box.onDidAccept(() => submit(false));
    box.onDidTriggerButton(() => submit(true));
    box.onDidHide(() => finish(undefined));
    box.show();
  });
}

/** A host name, or `{host, types?, server?}`, passed by a link or a caller. */
function directRequest(target: unknown, deps: Deps): DnsLookupRequest | undefined {
  if (typeof target === 'string') {
    const host = targetArgument(target, 'host');
    return host === undefined ? undefined : { host, server: deps.settings().dnsServer };
  }
  if (
    typeof target === 'object' &&
    target !== null &&
    typeof (target as DnsLookupRequest).host === 'string'
  ) {
    const { host, types, server } = target as DnsLookupRequest;
    return {
      host,
      types: Array.isArray(types) ? types.map(String) : undefined,
      server: typeof server === 'string' ? server : deps.settings().dnsServer,
    };
  }
  return undefined;
}
