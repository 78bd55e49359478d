// The link preview: a card drawn like a chat/social unfurl, the checks, the certificate of an
// https URL (tlsView.ts), and every tag found.
import type { ImageSlot, PreviewView, UnfurlResult } from '../protocol';
import { add, commandLink, el, externalLink, isHttpUrl, section, viewHeader } from './dom';
import { cardText, previewChecks } from './checks';
import { drawTls } from './tlsView';

export function drawPreview(root: HTMLElement, view: PreviewView): void {
  const data = view.data;
  if (!data) return;
  drawHeader(root, view, data);
  drawCard(root, view);
  drawChecks(root, view);
  if (view.tls) drawTls(root, view.tls);
  drawTags(root, data);
}

function drawHeader(root: HTMLElement, view: PreviewView, data: UnfurlResult): void {
  const { actions } = viewHeader(root, 'Link preview', data.resolved_url || view.target);
  const links = [
    commandLink('Redirects', 'hostlens.traceRedirects', view.target),
    commandLink('Icons', 'hostlens.showIcons', view.target),
    ...(isHttpUrl(data.resolved_url) ? [externalLink('Open in browser', data.resolved_url)] : []),
  ];
  actions.prepend(...links);
}

/** The page as a chat or social network would unfurl it. */
function drawCard(root: HTMLElement, view: PreviewView): void {
  const { title, description, siteName } = cardText(view);
  const card = add(root, el('article', 'card'));
  add(card, el('div', 'card-accent'));
  const body = add(card, el('div', 'card-body'));
  const site = add(body, el('div', 'card-site'));
  if (view.favicon && 'dataUri' in view.favicon) site.appendChild(img(view.favicon, 'favicon', ''));
  add(site, el('span', undefined, siteName));
  add(body, el('div', 'card-title', title || '(no title)'));
  if (description) add(body, el('div', 'card-description', description));
  const picture = imageOrNote(view.image);
  if (picture) add(body, picture);
}

function drawChecks(root: HTMLElement, view: PreviewView): void {
  const checks = section(root, 'Checks');
  const list = add(checks, el('ul', 'checks'));
  for (const check of previewChecks(view)) {
    const item = add(list, el('li', `check check-${check.level}`));
    add(
      item,
      el('span', 'check-mark', check.level === 'pass' ? '✓' : check.level === 'warn' ? '!' : '✗'),
    );
    add(item, el('span', undefined, check.text));
  }
}

/** Every tag the page has, as found: the fields, Open Graph, Twitter and oEmbed. */
function drawTags(root: HTMLElement, data: UnfurlResult): void {
  const tags = section(root, 'Tags');
  const table = add(tags, el('table', 'tags'));
  const head = add(add(table, el('thead')), el('tr'));
  add(head, el('th', undefined, 'Tag'));
  add(head, el('th', undefined, 'Value'));
  const tbody = add(table, el('tbody'));
  const put = (key: string, value: string) => {
    const tr = add(tbody, el('tr'));
    add(tr, el('td', 'tag-name', key));
    add(tr, el('td', 'tag-value', value));
  };
  put('title', data.page_title);
  put('description', data.page_description);
  if (data.page_keywords) put('keywords', data.page_keywords);
  if (data.application_name) put('application-name', data.application_name);
  if (data.canonical_url) put('canonical', data.canonical_url);
  if (data.icon_url) put('icon', data.icon_url);
  for (const [key, value] of Object.entries(data.open_graph)) {
    if (typeof value === 'string') put(key, value);
    else {
      for (const image of value) {
        for (const [sub, v] of Object.entries(image)) {
          if (typeof v === 'string' && v !== '') put(sub === 'url' ? key : `${key}:${sub}`, v);
        }
      }
    }
  }
  for (const [key, value] of Object.entries(data.twitter ?? {})) put(key, value);
  if (data.oembed?.json) put('oEmbed (JSON)', data.oembed.json);
  if (data.oembed?.xml) put('oEmbed (XML)', data.oembed.xml);
}

function imageOrNote(slot: ImageSlot | undefined): HTMLElement | undefined {
  if (!slot) return undefined;
  if ('dataUri' in slot) {
    const frame = el('div', 'card-image');
    frame.appendChild(img(slot, 'card-img', 'Preview image'));
    add(frame, el('span', 'image-size', `${slot.width}×${slot.height} ${slot.format}`));
    return frame;
  }
  return el('div', 'card-image missing', `Image not shown: ${slot.message}`);
}

export function img(slot: { dataUri: string }, className: string, alt: string): HTMLImageElement {
  const image = el('img', className);
  // Only data: URIs reach here (the CSP would refuse anything else anyway).
  if (slot.dataUri.startsWith('data:image/')) image.src = slot.dataUri;
  image.alt = alt;
  // Bytes the sizer accepted may still not decode in the browser: say so instead of a broken icon.
  image.addEventListener('error', () =>
    image.replaceWith(el('span', 'img-broken', 'Does not decode')),
  );
  return image;
}
