// "HostLens: Test an IP Against SPF…": RFC 7208 check_host for a client address, asked over
// the current backend's DNS so it works with the embedded engine and the hosted service alike.
import * as vscode from 'vscode';
import { isIP } from 'node:net';
import type { Deps } from '../deps';
import type { CheckHostResult } from '../../services/mail';
import { loadServices } from '../loadServices';
import { askTarget } from '../target';
import { errorSummary } from '../lookups/showEntry';
import { withLookupProgress } from '../progress';

export interface TestSpfArgs {
  host: string;
  ip: string;
  sender?: string;
}

export function registerTestSpf(context: vscode.ExtensionContext, deps: Deps): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('hostlens.testSpf', async (args?: TestSpfArgs) => {
      const host =
        args?.host ??
        (await askTarget('host', undefined, {
          title: 'HostLens: Test an IP Against SPF (1/3)',
          prompt: 'Domain whose policy to evaluate (the MAIL FROM domain)',
        }));
      if (!host) return undefined;
      const ip =
        args?.ip ??
        (await askStep(2, 'The sending server’s IP address', '192.0.2.25 or 2001:db8::25', (v) =>
          isIP(v.trim()) ? undefined : 'Enter an IPv4 or IPv6 address',
        ));
      if (!ip) return undefined;
      const sender =
        args?.sender ??
        (await askStep(
          3,
          'MAIL FROM address (optional; postmaster@domain when empty)',
          `someone@${host}`,
        ));
      if (sender === undefined) return undefined;
      const server = deps.settings().dnsServer;
      const domain = deps.services().domain;
      try {
        const result = await withLookupProgress(
          `HostLens: SPF check of ${ip.trim()} for ${host}`,
          async (signal) =>
            (await loadServices()).checkSpf(
              domain,
              { domain: host, ip: ip.trim(), sender: sender.trim() || undefined, server },
              { signal },
            ),
        );
        deps.log.info(`spf-check ${host} ${ip}: ${JSON.stringify(result)}`);
        void vscode.window.showInformationMessage(describe(host, ip.trim(), result));
        return result;
      } catch (err) {
        const error = errorSummary(err);
        if (error.code !== 'cancelled')
          void vscode.window.showErrorMessage(`HostLens: ${error.message}`);
        return { error };
      }
    }),
  );
}

/** One of the command's three questions. */
function askStep(
  step: number,
  prompt: string,
  placeHolder: string,
  validateInput?: (value: string) => string | undefined,
): Thenable<string | undefined> {
  return vscode.window.showInputBox({
    title: `HostLens: Test an IP Against SPF (${step}/3)`,
    prompt,
    placeHolder,
    ignoreFocusOut: true,
    ...(validateInput ? { validateInput } : {}),
  });
}

export function describe(host: string, ip: string, r: CheckHostResult): string {
  const decided = r.mechanism ? ` (decided by "${r.mechanism}")` : '';
  const why = r.reason ? `: ${r.reason}` : '';
  const explanation = r.explanation ? ` Explanation: ${r.explanation}` : '';
  const notes = (r.problems ?? []).map((p) => ` Note: ${p}.`).join('');
  return `SPF ${r.result} for ${ip} sending as ${host}${decided}${why}. ${r.lookups} DNS look-ups.${explanation}${notes}`;
}
