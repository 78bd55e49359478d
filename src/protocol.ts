// Messages between the HostLens panel (extension host) and its webview, typed both ways.
// The webview imports this file for types only; nothing here runs in either side.
import type {
  IconsResult,
  RedirectsResult,
  TlsResult,
  UnfurlResult,
  WhoisResult,
} from './contract/shapes';

export type { IconsResult, RedirectsResult, TlsResult, UnfurlResult, WhoisResult };

export type ViewKind = 'whois' | 'preview' | 'redirects' | 'icons';
export type ViewStatus = 'loading' | 'ready' | 'error' | 'not_found' | 'rate_limited';

export interface ViewError {
  /** the LookupError code */
  code: string;
  message: string;
  /** seconds, for rate_limited when the server said */
  retryAfter?: number;
}

/** An image the host fetched within its caps, handed over as a data: URI. */
export interface PanelImage {
  dataUri: string;
  width: number;
  height: number;
  format: string;
}

/** Why an image is not shown (not fetched, too big, not an image, …). */
export interface ImageProblem {
  code: string;
  message: string;
}

export type ImageSlot = PanelImage | ImageProblem;

interface ViewBase {
  /** increases with every state the host posts; echoed back in 'rendered' */
  seq: number;
  status: ViewStatus;
  /** what was asked for: the host name or the URL */
  target: string;
  error?: ViewError;
  /** ms since epoch when the answer arrived (relative times are computed from it) */
  at: number;
}

export interface WhoisView extends ViewBase {
  kind: 'whois';
  data?: WhoisResult;
  /** the raw reply is shown (the user's last choice in this panel) */
  showRaw: boolean;
}

export interface PreviewView extends ViewBase {
  kind: 'preview';
  data?: UnfurlResult;
  /** the first og:image (or twitter:image), keyed by nothing: there is one card image */
  image?: ImageSlot;
  favicon?: ImageSlot;
  /** an https URL: the certificate of its host, or why it could not be read */
  tls?: TlsResult | { error: ViewError };
}

export interface RedirectsView extends ViewBase {
  kind: 'redirects';
  data?: RedirectsResult;
}

export interface IconsView extends ViewBase {
  kind: 'icons';
  data?: IconsResult;
  /** icon URL -> fetched image or why not */
  images: Record<string, ImageSlot>;
}

export type ViewState = WhoisView | PreviewView | RedirectsView | IconsView;

/** host -> webview */
export type HostMessage = { type: 'show'; view: ViewState };

/** Commands a panel link may run, each with one string argument. */
export const PANEL_COMMANDS = [
  'hostlens.lookUpDnsRecords',
  'hostlens.whois',
  'hostlens.previewLink',
  'hostlens.traceRedirects',
  'hostlens.showIcons',
] as const;
export type PanelCommand = (typeof PANEL_COMMANDS)[number];

/** What the webview drew, as text: for the integration tests and the log. */
export interface RenderedSummary {
  seq: number;
  kind: ViewKind;
  status: ViewStatus;
  /** the visible text of the view, whitespace collapsed */
  text: string;
  /** links drawn: label and what they do */
  links: Array<{ label: string; command?: string; arg?: string; url?: string }>;
  /** src prefixes of every <img> (all must be data:) */
  images: string[];
  /** text of what is highlighted (expiry soon or past, failed and warned checks) */
  highlights: string[];
  /** elements that must never come from page data */
  scripts: number;
  handlers: number;
}

/** webview -> host */
export type WebviewMessage =
  | { type: 'ready' }
  | { type: 'rendered'; summary: RenderedSummary }
  | { type: 'runCommand'; command: PanelCommand; arg: string }
  | { type: 'openExternal'; url: string }
  | { type: 'toggleRaw'; shown: boolean }
  | { type: 'copy'; text: string };
