// Every `hostlens.*` setting, read in one typed place.
import * as vscode from 'vscode';
import { DNS_TIMEOUT_MS, DNS_TRIES } from '../contract/limits';

export type BackendKind = 'embedded' | 'remote';

export interface Settings {
  backend: BackendKind;
  domainApiBaseUrl: string;
  metaApiBaseUrl: string;
  dnsServer: string | undefined;
  dnsTimeoutMs: number;
  dnsTries: number;
  /** ask for DNSSEC validation in the results view and hovers */
  dnssec: boolean;
  /** the mail set-up connects to each MX host's port 25 and fetches the MTA-STS policy */
  mailTransport: boolean;
  /** PEM files of CAs the TLS look-ups trust besides the system's (user settings only) */
  tlsCaFiles: string[];
  hoverEnabled: boolean;
  hoverLanguages: string[];
  historyMaxHosts: number;
  /** the link check: .gitignore-style excludes, open requests per host, expiry window */
  linkCheckExclude: string[];
  linkCheckMaxPerHost: number;
  linkCheckExpiryDays: number;
  /** language ids whose files are re-checked on save */
  linkCheckOnSave: string[];
}

export const SETTINGS_SECTION = 'hostlens';

export function readSettings(): Settings {
  const config = vscode.workspace.getConfiguration(SETTINGS_SECTION);
  const server = config.get<string>('dns.server', '').trim();
  return {
    backend: machineValue(config, 'backend', 'embedded') === 'remote' ? 'remote' : 'embedded',
    domainApiBaseUrl: machineValue(config, 'domainApiBaseUrl', '').trim(),
    metaApiBaseUrl: machineValue(config, 'metaApiBaseUrl', '').trim(),
    dnsServer: server === '' ? undefined : server,
    dnsTimeoutMs: clamp(config.get<number>('dns.timeoutMs', DNS_TIMEOUT_MS), 100, 60000),
    dnsTries: clamp(config.get<number>('dns.tries', DNS_TRIES), 1, 5),
    dnssec: config.get<boolean>('dns.dnssec', true),
    mailTransport: config.get<boolean>('mail.checkTransport', true),
    tlsCaFiles: machineList(config, 'tls.caFiles'),
    hoverEnabled: config.get<boolean>('hover.enabled', true),
    hoverLanguages: config.get<string[]>('hover.languages', []),
    historyMaxHosts: clamp(config.get<number>('history.maxHosts', 25), 1, 200),
    linkCheckExclude: config.get<string[]>('linkCheck.exclude', []),
    linkCheckMaxPerHost: Math.round(clamp(config.get<number>('linkCheck.maxPerHost', 4), 1, 64)),
    linkCheckExpiryDays: Math.round(clamp(config.get<number>('linkCheck.expiryDays', 30), 1, 365)),
    linkCheckOnSave: config.get<string[]>('linkCheck.onSaveLanguages', ['markdown']),
  };
}

/**
 * A machine-scoped setting (package.json) from the user's own settings only: these decide where
 * the API token is sent, so a value in a repository's .vscode/settings.json must never count,
 * even in a VS Code that would apply it.
 */
function machineValue(
  config: vscode.WorkspaceConfiguration,
  key: string,
  fallback: string,
): string {
  const value = config.inspect<string>(key)?.globalValue;
  return typeof value === 'string' ? value : fallback;
}

/** A machine-scoped list setting, from the user's own settings only (see machineValue). */
function machineList(config: vscode.WorkspaceConfiguration, key: string): string[] {
  const value = config.inspect<unknown>(key)?.globalValue;
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function clamp(value: number, min: number, max: number): number {
  return Number.isFinite(value) ? Math.min(max, Math.max(min, value)) : min;
}
