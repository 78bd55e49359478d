// The panel's browser side: draws the view state the host posts (DOM APIs and textContent
// only: page text is untrusted), keeps it with setState, and says what it drew.
import type {
  HostMessage,
  PanelCommand,
  RenderedSummary,
  ViewState,
  WebviewMessage,
} from '../protocol';
import { add, button, el } from './dom';
import { drawIcons } from './iconsView';
import { drawPreview } from './previewView';
import { drawRedirects } from './redirectsView';
import { drawTls } from './tlsView';
import { drawWhois } from './whoisView';

interface VsCodeApi {
  postMessage(message: WebviewMessage): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const root = document.getElementById('root') as HTMLElement;
let current: ViewState | undefined;

const KIND_LABEL = {
  whois: 'WHOIS',
  preview: 'the link preview',
  redirects: 'the redirects',
  icons: 'the icons',
} as const;
const RETRY_COMMAND = {
  whois: 'hostlens.whois',
  preview: 'hostlens.previewLink',
  redirects: 'hostlens.traceRedirects',
  icons: 'hostlens.showIcons',
} as const;

function render(view: ViewState): void {
  current = view;
  root.replaceChildren();
  root.className = `view view-${view.kind} status-${view.status}`;
  if (view.status === 'loading') drawLoading(view);
  else if (view.status !== 'ready') {
    drawProblem(view);
    // A page that cannot be fetched over https: the certificate often says why.
    if (view.kind === 'preview' && view.tls) drawTls(root, view.tls);
  } else if (view.kind === 'whois') drawWhois(root, view);
  else if (view.kind === 'preview') drawPreview(root, view);
  else if (view.kind === 'redirects') drawRedirects(root, view);
  else drawIcons(root, view);
  vscode.postMessage({ type: 'rendered', summary: summarize(view) });
}

function drawLoading(view: ViewState): void {
  const box = add(root, el('div', 'state state-loading'));
  add(box, el('div', 'spinner'));
  add(box, el('h1', undefined, `Looking up ${KIND_LABEL[view.kind]}…`));
  add(box, el('p', 'muted target', view.target));
  const skeleton = add(root, el('div', 'skeleton'));
  for (let i = 0; i < 4; i++) add(skeleton, el('div', 'skeleton-line'));
}

function drawProblem(view: ViewState): void {
  const box = add(root, el('div', `state state-${view.status}`));
  const icon = view.status === 'not_found' ? '?' : view.status === 'rate_limited' ? '⏱' : '!';
  add(box, el('div', 'state-icon', icon));
  let title: string;
  let hint: string;
  if (view.status === 'not_found') {
    title = view.kind === 'whois' ? `${view.target} is not registered` : 'Nothing found';
    hint =
      view.kind === 'whois'
        ? 'The registry has no record of this name: it may be free to register.'
        : 'The server answered that there is nothing at this address.';
  } else if (view.status === 'rate_limited') {
    title = 'The server is rate limiting queries';
    const wait = view.error?.retryAfter;
    hint =
      wait !== undefined
        ? `It asks to wait ${wait} seconds before the next query. This says nothing about the name itself.`
        : 'Wait a minute before trying again. This says nothing about the name itself.';
  } else {
    title =
      view.error?.code === 'cancelled' ? 'Cancelled' : `Could not get ${KIND_LABEL[view.kind]}`;
    hint = certificateRefused(view)
      ? 'The server’s certificate is not trusted (below): HostLens does not fetch a page over it.'
      : 'Check the name or URL, your network, or the HostLens log for details.';
  }
  add(box, el('h1', undefined, title));
  add(box, el('p', 'target', view.target));
  if (view.error) {
    const detail = add(box, el('p', 'detail'));
    add(detail, el('code', undefined, view.error.code));
    add(detail, el('span', undefined, ` ${view.error.message}`));
  }
  add(box, el('p', 'muted', hint));
  const retry = add(box, button('Try again', 'retry'));
  retry.dataset.command = RETRY_COMMAND[view.kind];
}

/** A preview whose https certificate failed verification: why its page fetch failed. */
function certificateRefused(view: ViewState): boolean {
  const tls = view.kind === 'preview' ? view.tls : undefined;
  return tls !== undefined && !('error' in tls) && !tls.trusted;
}

function summarize(view: ViewState): RenderedSummary {
  const links = Array.from(root.querySelectorAll<HTMLElement>('a')).map((a) => ({
    label: a.textContent ?? '',
    ...(a.dataset.command ? { command: a.dataset.command } : {}),
    ...(a.dataset.arg ? { arg: a.dataset.arg } : {}),
    ...(a.dataset.url ? { url: a.dataset.url } : {}),
  }));
  let handlers = 0;
  for (const node of Array.from(root.querySelectorAll('*'))) {
    if (Array.from(node.attributes).some((a) => a.name.startsWith('on'))) handlers += 1;
  }
  return {
    seq: view.seq,
    kind: view.kind,
    status: view.status,
    text: (root.innerText || root.textContent || '').replace(/\s+/g, ' ').trim(),
    links,
    highlights: Array.from(
      root.querySelectorAll('.level-soon, .level-past, .check-warn, .check-fail, .banner-error'),
    ).map((e) => (e.textContent ?? '').replace(/\s+/g, ' ').trim()),
    images: Array.from(root.querySelectorAll('img')).map((i) => i.getAttribute('src') ?? ''),
    scripts: root.querySelectorAll('script, iframe, object, embed').length,
    handlers,
  };
}

root.addEventListener('click', (event) => {
  const target = (event.target as Element | null)?.closest<HTMLElement>('a, button');
  if (!target || !current) return;
  event.preventDefault();
  const { command, arg, url, action } = target.dataset;
  if (action === 'retry' && command) {
    vscode.postMessage({
      type: 'runCommand',
      command: command as PanelCommand,
      arg: current.target,
    });
  } else if (command && arg) {
    vscode.postMessage({ type: 'runCommand', command: command as PanelCommand, arg });
  } else if (url) {
    vscode.postMessage({ type: 'openExternal', url });
  } else if (action === 'toggle-raw' && current.kind === 'whois') {
    const shown = !current.showRaw;
    current = { ...current, showRaw: shown };
    vscode.setState(current);
    vscode.postMessage({ type: 'toggleRaw', shown });
    const pre = root.querySelector<HTMLElement>('pre.raw');
    if (pre) pre.hidden = !shown;
    target.textContent = shown ? 'Hide raw reply' : 'Show raw reply';
  } else if (action === 'copy-raw' && current.kind === 'whois' && current.data?.raw) {
    vscode.postMessage({ type: 'copy', text: current.data.raw });
  } else if (action === 'copy-json' && 'data' in current && current.data) {
    vscode.postMessage({ type: 'copy', text: JSON.stringify(current.data, null, 2) });
  }
});

window.addEventListener('message', (event: MessageEvent<HostMessage>) => {
  const message = event.data;
  if (message?.type !== 'show') return;
  vscode.setState(message.view);
  render(message.view);
});

// A rebuilt webview (hidden, then shown again) draws its last state at once; the host then
// posts the latest one in answer to 'ready'.
const saved = vscode.getState() as ViewState | undefined;
if (saved && typeof saved === 'object' && 'kind' in saved) render(saved);
vscode.postMessage({ type: 'ready' });
