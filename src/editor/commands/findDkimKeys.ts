// "HostLens: Find DKIM Keys…": the default selector list, or the selectors the user names.
import * as vscode from 'vscode';
import type { Deps } from '../deps';
import { askTarget } from '../target';
import { runMailLookup } from '../lookups/mailLookup';

export function registerFindDkimKeys(context: vscode.ExtensionContext, deps: Deps): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(
      'hostlens.findDkimKeys',
      async (target?: unknown, selectorsArg?: unknown) => {
        const host = await askTarget('host', target, {
          title: 'HostLens: Find DKIM Keys (1/2)',
          prompt: 'Mail domain',
        });
        if (!host) return undefined;
        let selectors: string[] | undefined;
        if (Array.isArray(selectorsArg)) {
          selectors = selectorsArg.map(String);
        } else if (target === undefined) {
          const typed = await vscode.window.showInputBox({
            title: 'HostLens: Find DKIM Keys (2/2)',
            prompt: 'Selectors, separated by spaces or commas; leave empty for the common ones',
            placeHolder: 'google selector1 s1 k1',
            ignoreFocusOut: true,
          });
          if (typed === undefined) return undefined;
          selectors = typed.split(/[\s,]+/).filter((s) => s !== '');
        }
        return runMailLookup(deps, {
          host,
          server: deps.settings().dnsServer,
          part: 'dkim',
          selectors: selectors && selectors.length > 0 ? selectors : undefined,
        });
      },
    ),
  );
}
