// The icon gallery: each icon as the host fetched it (data: URI), its rel and real size.
import type { IconsResult, IconsView } from '../protocol';

type Icon = IconsResult['icons'][number];
import { add, viewHeader, chip, el, externalLink, isHttpUrl } from './dom';
import { img } from './previewView';

export function drawIcons(root: HTMLElement, view: IconsView): void {
  const data = view.data;
  if (!data) return;
  const count = `${data.icons.length} icon${data.icons.length === 1 ? '' : 's'}`;
  viewHeader(root, 'Icons', [count, data.canonical_url].filter((part) => part !== '').join(' · '));
  if (data.icons.length === 0) {
    add(root, el('p', 'empty', 'This site declares no icons and has no /favicon.ico.'));
    return;
  }
  const grid = add(root, el('div', 'gallery'));
  for (const icon of data.icons) {
    const tile = add(grid, el('figure', icon.url === data.icon_url ? 'tile best' : 'tile'));
    const frame = add(tile, el('div', 'tile-image'));
    const slot = view.images[icon.url];
    const problem = iconProblem(icon);
    if (slot && 'dataUri' in slot) frame.appendChild(img(slot, 'icon-img', icon.rel));
    else add(frame, el('span', 'tile-missing', problem?.long ?? slot?.message ?? 'Not fetched'));
    const caption = add(tile, el('figcaption'));
    const top = add(caption, el('div', 'tile-top'));
    add(top, chip(icon.rel, 'chip-rel'));
    if (icon.url === data.icon_url) add(top, chip('best', 'tone-ok'));
    add(
      caption,
      el(
        'div',
        'tile-size',
        `${icon.width}×${icon.height}${icon.format ? ` ${icon.format}` : ''}${problem ? ` ${problem.short}` : ''}`,
      ),
    );
    const link = isHttpUrl(icon.url)
      ? externalLink(shortUrl(icon.url), icon.url)
      : el('span', 'muted', 'inline data: URI');
    link.classList.add('tile-url');
    add(caption, link);
  }
}

/** Why an icon the page declares was not measured: its URL's HTTP error, or the size cap. */
function iconProblem(icon: Icon): { short: string; long: string } | undefined {
  if (icon.reason === 'http_error') {
    const status = `HTTP ${icon.status ?? 'error'}`;
    return { short: status, long: `${status}: not served` };
  }
  if (icon.reason === 'too_large') return { short: 'too large', long: 'Over the image size cap' };
  return undefined;
}

function shortUrl(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname + u.search;
  } catch {
    return url;
  }
}
