// Runs a mail look-up (the whole set-up, or only SPF or DKIM), merges it into the host's mail
// entry and shows it in the results view.
import * as vscode from 'vscode';
import type { Deps } from '../deps';
import { askTarget } from '../target';
import { loadServices } from '../loadServices';
import type { MailEntry } from '../views/history';
import { errorSummary, isInputError, showEntry } from './showEntry';
import { withLookupProgress } from '../progress';

export type MailPart = 'all' | 'spf' | 'dkim';

export interface MailLookupRequest {
  host: string;
  server?: string;
  part: MailPart;
  selectors?: string[];
}

const TITLES: Record<MailPart, string> = {
  all: 'mail set-up',
  spf: 'SPF tree',
  dkim: 'DKIM keys',
};

/** A command that looks up one part of a host's mail set-up (the argument's host, or asks). */
export function registerMailCommand(
  context: vscode.ExtensionContext,
  deps: Deps,
  command: { id: string; title: string; prompt: string; part: MailPart },
): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(command.id, async (target?: unknown) => {
      const host = await askTarget('host', target, {
        title: command.title,
        prompt: command.prompt,
      });
      if (!host) return undefined;
      return runMailLookup(deps, { host, server: deps.settings().dnsServer, part: command.part });
    }),
  );
}

export async function runMailLookup(deps: Deps, request: MailLookupRequest): Promise<MailEntry> {
  const { host, server, part, selectors } = request;
  const started = Date.now();
  const previous = deps.history.find('mail', host, server);
  const entry = await withLookupProgress(
    `HostLens: ${TITLES[part]} of ${host}`,
    async (signal): Promise<MailEntry> => {
      const domain = deps.services().domain;
      try {
        let setup: MailEntry['setup'];
        if (part === 'all') {
          const { host: _host, ...rest } = await (
            await loadServices()
          ).mailSetup(domain, host, {
            signal,
            server,
            selectors,
            transport: deps.settings().mailTransport,
          });
          setup = rest;
        } else if (part === 'spf') {
          setup = {
            ...previous?.setup,
            spf: await domain.senderPolicyRanges({ host, server }, { signal }),
          };
        } else {
          setup = {
            ...previous?.setup,
            dkim: await domain.domainKeys({ host, server, selectors }, { signal }),
          };
        }
        return { kind: 'mail', host, server, at: Date.now(), setup };
      } catch (err) {
        const error = errorSummary(err);
        // A failed SPF or DKIM part (no SPF record, a timeout) belongs to that part only.
        if (part !== 'all' && error.code !== 'cancelled' && !isInputError(error.code)) {
          return {
            kind: 'mail',
            host,
            server,
            at: Date.now(),
            setup: { ...previous?.setup, [part]: { error } },
          };
        }
        return { kind: 'mail', host, server, at: Date.now(), error };
      }
    },
  );
  deps.log.info(
    `${TITLES[part]} ${host}: ${entry.error ? entry.error.code : 'answered'} in ${Date.now() - started} ms`,
  );
  await showEntry(deps, entry);
  return entry;
}
