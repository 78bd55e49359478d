// The redirect chain as a timeline: each hop's status chip and target, then the final answer.
import type { RedirectsResult, RedirectsView } from '../protocol';
import { add, viewHeader, chip, commandLink, el, externalLink, isHttpUrl } from './dom';

const REASONS: Record<number, string> = {
  300: 'Multiple Choices',
  301: 'Moved Permanently',
  302: 'Found',
  303: 'See Other',
  304: 'Not Modified',
  307: 'Temporary Redirect',
  308: 'Permanent Redirect',
  200: 'OK',
  204: 'No Content',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  410: 'Gone',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

export function statusChip(code: number): HTMLElement {
  const reason = REASONS[code];
  const klass = [301, 302, 303, 307, 308].includes(code)
    ? `status-${code}`
    : code >= 200 && code < 300
      ? 'status-2xx'
      : code >= 400
        ? 'status-error'
        : 'status-other';
  return chip(reason ? `${code} ${reason}` : String(code), klass);
}

export function drawRedirects(root: HTMLElement, view: RedirectsView): void {
  const data = view.data;
  if (!data) return;
  drawHeader(root, view, data);
  if (data.error) drawChainError(root, data.error.code, data.locations.length);
  drawTimeline(root, view.target, data);
  if (data.locations.length > 0) drawLegend(root);
  if (data.meta_refresh) drawMetaRefresh(root, data.meta_refresh);
}

function drawHeader(root: HTMLElement, view: RedirectsView, data: RedirectsResult): void {
  const hops = data.locations;
  const permanent = hops.filter((h) => h.status_code === 301 || h.status_code === 308).length;
  const { actions } = viewHeader(
    root,
    'Redirects',
    hops.length === 0
      ? 'No redirects'
      : `${hops.length} redirect${hops.length === 1 ? '' : 's'}, ${permanent} permanent`,
  );
  actions.prepend(commandLink('Preview', 'hostlens.previewLink', data.final_url ?? view.target));
}

function drawChainError(
  root: HTMLElement,
  code: NonNullable<RedirectsResult['error']>['code'],
  hopCount: number,
): void {
  const banner = add(root, el('div', 'banner banner-error'));
  add(
    banner,
    el('strong', undefined, code === 'redirect_loop' ? 'Redirect loop' : 'Too many redirects'),
  );
  add(
    banner,
    el(
      'span',
      undefined,
      code === 'redirect_loop'
        ? ' The chain comes back to an address it already visited; browsers give up here.'
        : ` The chain goes on past ${hopCount} hops; browsers give up at about 20.`,
    ),
  );
}

/** Requested, each hop with its status, and the final answer. */
function drawTimeline(root: HTMLElement, target: string, data: RedirectsResult): void {
  const timeline = add(root, el('ol', 'timeline'));
  const start = add(timeline, el('li', 'step step-start'));
  add(start, el('span', 'step-label', 'Requested'));
  add(start, el('span', 'url', target));
  for (const [i, hop] of data.locations.entries()) {
    const step = add(timeline, el('li', 'step'));
    add(step, statusChip(hop.status_code));
    add(step, el('span', 'arrow', '→'));
    add(step, el('span', 'url', hop.location));
    add(step, el('span', 'step-index muted', `hop ${i + 1}`));
  }
  if (data.final_url !== undefined) {
    const end = add(timeline, el('li', 'step step-final'));
    add(end, el('span', 'step-label', 'Final'));
    if (data.final_status_code !== undefined) add(end, statusChip(data.final_status_code));
    add(
      end,
      isHttpUrl(data.final_url)
        ? externalLink(data.final_url, data.final_url)
        : el('span', 'url', data.final_url),
    );
  }
}

function drawLegend(root: HTMLElement): void {
  const legend = add(root, el('div', 'legend muted'));
  add(legend, chip('301/308', 'status-301'));
  add(legend, el('span', undefined, 'permanent'));
  add(legend, chip('302/307', 'status-302'));
  add(legend, el('span', undefined, 'temporary'));
  add(legend, chip('303', 'status-303'));
  add(legend, el('span', undefined, 'temporary, next request is a GET'));
  add(legend, chip('dashed', 'status-307'));
  add(legend, el('span', undefined, 'method and body kept (307, 308)'));
}

/** A <meta http-equiv=refresh> on the final page: reported, not followed. */
function drawMetaRefresh(root: HTMLElement, refresh: { delay: number; url: string }): void {
  const note = add(root, el('div', 'banner banner-info'));
  add(note, el('strong', undefined, 'Meta refresh'));
  add(
    note,
    el(
      'span',
      undefined,
      ` The final page asks the browser to go to ${refresh.url} after ${refresh.delay} s (not followed here).`,
    ),
  );
}
