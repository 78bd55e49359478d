// Which services answer: the embedded engine (default, no account) or the hosted service over
// HTTP with the token from SecretStorage. The token is read from SecretStorage on every call
// and handed only to HttpServices; it never goes into settings, logs or the webview.
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { LookupError } from '../contract/errors';
import type { Log } from './log';
import type { HttpServices } from '../services/http';
import type { Services } from '../contract/services';
import { deferredServices } from './loadServices';
import type { BackendKind, Settings } from './settings';

export const TOKEN_SECRET_KEY = 'hostlens.apiToken';

export class Backend implements vscode.Disposable {
  private services: Services;
  /** the hosted service's client of the current backend, once a look-up has built it */
  private http: { client?: HttpServices } | undefined;
  private tokenPresent = false;
  private promptedForToken = false;
  /** How often a 401 led to the "set a new token" prompt (tests read it). */
  unauthorizedPrompts = 0;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly settings: () => Settings,
    private readonly log: Log,
  ) {
    this.services = this.build();
    this.subscriptions.push(
      secrets.onDidChange((event) => {
        if (event.key !== TOKEN_SECRET_KEY) return;
        this.promptedForToken = false;
        void this.refreshTokenState();
      }),
    );
    void this.refreshTokenState();
  }

  current(): Services {
    return this.services;
  }

  kind(): BackendKind {
    return this.settings().backend;
  }

  hasToken(): boolean {
    return this.tokenPresent;
  }

  /** Call when settings change: the next look-up uses the new backend. */
  rebuild(): void {
    void this.http?.client?.close();
    this.http = undefined;
    this.services = this.build();
    this.changed.fire();
  }

  /** The services of the current settings; the engine loads on their first call. */
  private build(): Services {
    const settings = this.settings();
    if (settings.backend === 'embedded') {
      return deferredServices(
        ({ EmbeddedServices }) =>
          new EmbeddedServices({
            dnsTimeoutMs: settings.dnsTimeoutMs,
            dnsTries: settings.dnsTries,
            extraCa: readCaFiles(settings.tlsCaFiles, this.log),
          }),
      );
    }
    const http: { client?: HttpServices } = {};
    this.http = http;
    this.log.info(`remote backend: ${settings.domainApiBaseUrl} and ${settings.metaApiBaseUrl}`);
    const services = deferredServices(({ HttpServices }) => {
      http.client = new HttpServices({
        domainApiBaseUrl: settings.domainApiBaseUrl,
        metaApiBaseUrl: settings.metaApiBaseUrl,
        token: () => Promise.resolve(this.secrets.get(TOKEN_SECRET_KEY)),
      });
      return http.client;
    });
    return watchUnauthorized(services, () => this.onUnauthorized());
  }

  private async refreshTokenState(): Promise<void> {
    this.tokenPresent = Boolean(await this.secrets.get(TOKEN_SECRET_KEY));
    this.changed.fire();
  }

  /** A 401 asks the user once for a new token, until the token changes. */
  private onUnauthorized(): void {
    if (this.promptedForToken) return;
    this.promptedForToken = true;
    this.unauthorizedPrompts += 1;
    const action = this.tokenPresent ? 'Set a New Token' : 'Set API Token';
    const message = this.tokenPresent
      ? 'HostLens: the service rejected the API token.'
      : 'HostLens: the remote backend needs an API token.';
    void vscode.window.showWarningMessage(message, action).then((choice) => {
      if (choice === action) void vscode.commands.executeCommand('hostlens.setApiToken');
    });
  }

  dispose(): void {
    void this.http?.client?.close();
    this.changed.dispose();
    for (const s of this.subscriptions) s.dispose();
  }
}

/** Wraps every service method so an `unauthorized` error also calls `onUnauthorized`. */
function watchUnauthorized(services: Services, onUnauthorized: () => void): Services {
  const watch = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(object, property, receiver) {
        const value: unknown = Reflect.get(object, property, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) =>
          (value as (...a: unknown[]) => Promise<unknown>)
            .apply(object, args)
            .catch((err: unknown) => {
              if (err instanceof LookupError && err.code === 'unauthorized') onUnauthorized();
              throw err;
            });
      },
    });
  return { domain: watch(services.domain), meta: watch(services.meta) };
}

/** The PEM text of each CA file; one that cannot be read is logged and left out. */
function readCaFiles(files: readonly string[], log: { warn(message: string): void }): string[] {
  const pems: string[] = [];
  for (const file of files) {
    try {
      pems.push(readFileSync(file, 'utf8'));
    } catch (err) {
      log.warn(`hostlens.tls.caFiles: ${file} cannot be read (${(err as Error).message})`);
    }
  }
  return pems;
}
