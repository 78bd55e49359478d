// The one "HostLens" webview panel, reused for WHOIS, link previews, redirects and icons.
// The host posts whole view states; the webview draws them with DOM APIs and says what it drew.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { HostMessage, RenderedSummary, ViewState } from '../../protocol';
import { parseWebviewMessage, safeExternalUrl } from './messages';

const VIEW_TYPE = 'hostlens.panel';
const RENDER_WAIT_MS = 15000;

export class HostLensPanel implements vscode.Disposable {
  private static current: HostLensPanel | undefined;

  /** Reveals the panel, creating it (beside the editor) when there is none. */
  static createOrShow(extensionUri: vscode.Uri, log?: vscode.LogOutputChannel): HostLensPanel {
    if (HostLensPanel.current) {
      HostLensPanel.current.panel.reveal(undefined, true);
      return HostLensPanel.current;
    }
    const panel = vscode.window.createWebviewPanel(
      VIEW_TYPE,
      'HostLens',
      {
        // Beside the text being read; the whole editor area when there is none.
        viewColumn: vscode.window.activeTextEditor
          ? vscode.ViewColumn.Beside
          : vscode.ViewColumn.Active,
        preserveFocus: true,
      },
      {
        enableScripts: true,
        enableFindWidget: true,
        localResourceRoots: [
          vscode.Uri.joinPath(extensionUri, 'dist'),
          vscode.Uri.joinPath(extensionUri, 'media'),
        ],
      },
    );
    HostLensPanel.current = new HostLensPanel(panel, extensionUri, log);
    return HostLensPanel.current;
  }

  /** The raw WHOIS reply is shown: the user's last choice, kept for the next look-up. */
  showRaw = false;
  lastPosted: ViewState | undefined;
  lastRendered: RenderedSummary | undefined;
  readonly html: string;

  private ready = false;
  private seq = 0;
  private disposed = false;
  private run: AbortController | undefined;
  private readonly waiters: Array<{ seq: number; resolve: (s: RenderedSummary) => void }> = [];
  private readonly disposables: vscode.Disposable[] = [];

  private constructor(
    private readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    private readonly log: vscode.LogOutputChannel | undefined,
  ) {
    panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'hostlens.svg');
    this.html = pageHtml(panel.webview, extensionUri);
    panel.webview.html = this.html;
    this.disposables.push(
      panel.onDidDispose(() => this.dispose()),
      panel.webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)),
    );
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  /**
   * Starts a new look-up in this panel: the previous one (if still running) is aborted, and
   * the returned signal fires when this one is superseded or the panel closes.
   */
  begin(): AbortSignal {
    this.run?.abort();
    this.run = new AbortController();
    return this.run.signal;
  }

  /** Posts a view state (numbered here); queued until the webview is ready. */
  show(view: ViewState): ViewState {
    if (this.disposed) return view;
    view.seq = ++this.seq;
    this.lastPosted = view;
    this.panel.title = panelTitle(view);
    if (this.ready) this.post({ type: 'show', view });
    return view;
  }

  /** Resolves with what the webview drew for `seq` (or later), undefined after a timeout. */
  whenRendered(seq: number, timeoutMs = RENDER_WAIT_MS): Promise<RenderedSummary | undefined> {
    if (this.lastRendered && this.lastRendered.seq >= seq) {
      return Promise.resolve(this.lastRendered);
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(undefined), timeoutMs);
      this.waiters.push({
        seq,
        resolve: (s) => {
          clearTimeout(timer);
          resolve(s);
        },
      });
    });
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.run?.abort();
    if (HostLensPanel.current === this) HostLensPanel.current = undefined;
    for (const d of this.disposables.splice(0)) d.dispose();
    this.panel.dispose();
  }

  private post(message: HostMessage): void {
    void this.panel.webview.postMessage(message);
  }

  private receive(raw: unknown): void {
    const message = parseWebviewMessage(raw);
    if (!message) {
      this.log?.warn('panel: ignored a malformed or refused message from the webview');
      return;
    }
    switch (message.type) {
      case 'ready':
        // Also after the webview was hidden and rebuilt: it gets the latest state again.
        this.ready = true;
        if (this.lastPosted) this.post({ type: 'show', view: this.lastPosted });
        return;
      case 'rendered': {
        this.lastRendered = message.summary;
        const due = this.waiters.filter((w) => w.seq <= message.summary.seq);
        for (const w of due) {
          this.waiters.splice(this.waiters.indexOf(w), 1);
          w.resolve(message.summary);
        }
        return;
      }
      case 'runCommand':
        void vscode.commands.executeCommand(message.command, message.arg);
        return;
      case 'openExternal': {
        const url = safeExternalUrl(message.url);
        if (url) void vscode.env.openExternal(vscode.Uri.parse(url, true));
        return;
      }
      case 'toggleRaw':
        this.showRaw = message.shown;
        if (this.lastPosted?.kind === 'whois') this.lastPosted.showRaw = message.shown;
        return;
      case 'copy':
        void vscode.env.clipboard
          .writeText(message.text)
          .then(() => vscode.window.setStatusBarMessage('HostLens: copied', 2000));
        return;
    }
  }
}

function panelTitle(view: ViewState): string {
  const label = { whois: 'WHOIS', preview: 'Preview', redirects: 'Redirects', icons: 'Icons' };
  const target = view.kind === 'whois' ? view.target : hostOf(view.target);
  return `${label[view.kind]}: ${target}`;
}

function hostOf(url: string): string {
  try {
    return new URL(/^[a-z][a-z0-9+.-]*:/i.test(url) ? url : `https://${url}`).host;
  } catch {
    return url;
  }
}

function pageHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  const nonce = randomBytes(18).toString('base64');
  const script = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview.js'));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'panel.css'));
  const csp = [
    "default-src 'none'",
    'img-src data:',
    `style-src ${webview.cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${style.toString()}">
<title>HostLens</title>
</head>
<body>
<main id="root" aria-live="polite"></main>
<script nonce="${nonce}" src="${script.toString()}"></script>
</body>
</html>`;
}
