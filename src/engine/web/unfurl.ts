// GET /unfurl: the preview of a page. Every field of the seed is always present; og:image
// sub-properties are grouped under the image they follow, as the Open Graph protocol does.
import { LookupError } from '../../contract/errors';
import type { OpenGraph, OpenGraphImage, UnfurlResult } from '../../contract/shapes';
import type { MetaParams } from '../../contract/services';
import { checkLanguage, withSession, type WebOptions } from './fetcher';
import { collapse, resolveHref, type HeadMeta } from './html';
import { collectIcons, linkHref, loopError } from './icons';
import { cappedUrl } from './url-cap';
import { fetchPage } from './page';

const IMAGE_FIELDS = new Set(['width', 'height', 'alt', 'type', 'secure_url']);

/** What one answer holds at most; past any of these it says `truncated: true`. */
export const PREVIEW_CAPS = {
  /** og:image entries */
  images: 32,
  /** other og:* properties, and twitter:* tags */
  properties: 64,
  /** characters of one value */
  valueChars: 2048,
} as const;

/** Collects whether any cap bit while an answer was built. */
interface Cut {
  truncated: boolean;
}

function capped(value: string, cut: Cut): string {
  if (value.length <= PREVIEW_CAPS.valueChars) return value;
  cut.truncated = true;
  return value.slice(0, PREVIEW_CAPS.valueChars);
}

export async function unfurl(params: MetaParams, options?: WebOptions): Promise<UnfurlResult> {
  const language = checkLanguage(params.language);
  return withSession(options, async (session) => {
    const page = await fetchPage(session, params.url, language);
    const { chain } = page;
    if (chain.error) throw loopError(page);
    if (chain.status === 404 || chain.status === 410) {
      throw new LookupError('not_found', `${chain.url.hostname} has no page at that address`);
    }
    if (chain.status >= 400) {
      throw new LookupError(
        'upstream_error',
        `${chain.url.hostname} answered HTTP ${chain.status}`,
      );
    }
    const iconUrl = page.head ? (await collectIcons(session, page)).icon_url : '';
    return previewFromHead(page.head, chain.url, iconUrl);
  });
}

/** The unfurl fields of a parsed head; pure, so the bench and corpus checks call it directly. */
export function previewFromHead(
  head: HeadMeta | undefined,
  pageUrl: URL,
  iconUrl: string,
): UnfurlResult {
  const cut: Cut = { truncated: false };
  const openGraph = head ? groupOpenGraph(head, pageUrl, cut) : {};
  const og = (key: string): string => {
    const value = openGraph[key];
    return typeof value === 'string' ? collapse(value) : '';
  };
  const name = (key: string): string => capped(collapse(head?.names.get(key) ?? ''), cut);
  const result: UnfurlResult = {
    application_name: name('application-name') || og('og:site_name'),
    canonical_url: cappedUrl(head ? (linkHref(head, pageUrl, 'canonical') ?? '') : '', cut),
    page_description: name('description') || og('og:description'),
    icon_url: iconUrl,
    page_keywords: name('keywords'),
    resolved_url: cappedUrl(pageUrl.href, cut),
    page_title: capped(
      head?.title || og('og:title') || collapse(head?.twitter.get('twitter:title') ?? ''),
      cut,
    ),
    open_graph: openGraph,
  };
  if (head && head.twitter.size > 0) result.twitter = twitterTags(head, cut);
  const oembed = head ? oembedLinks(head, pageUrl) : undefined;
  if (oembed) result.oembed = oembed;
  if (cut.truncated) result.truncated = true;
  return result;
}

export function groupOpenGraph(
  head: HeadMeta,
  pageUrl: URL,
  cut: Cut = { truncated: false },
): OpenGraph {
  const out: OpenGraph = {};
  const images: OpenGraphImage[] = [];
  let properties = 0;
  // An image past the cap is dropped with the sub-properties that follow it.
  let droppingImage = false;
  const absolute = (value: string) => resolveHref(value, pageUrl, head.baseHref)?.href ?? value;
  for (const [property, raw] of head.openGraph) {
    const value = capped(raw, cut);
    if (property === 'og:image' || property === 'og:image:url') {
      const url = absolute(value);
      // og:image followed by og:image:url naming the same file is one image, not two.
      if (property === 'og:image:url' && !droppingImage && images.at(-1)?.url === url) continue;
      if (url === '') continue;
      droppingImage = images.length >= PREVIEW_CAPS.images;
      if (droppingImage) cut.truncated = true;
      else images.push({ url });
      continue;
    }
    if (property.startsWith('og:image:')) {
      const field = property.slice('og:image:'.length);
      const current = images.at(-1);
      if (current && !droppingImage && IMAGE_FIELDS.has(field) && !(field in current)) {
        (current as unknown as Record<string, string>)[field] =
          field === 'secure_url' ? absolute(value) : value;
      }
      continue;
    }
    if (property in out) continue;
    if (properties >= PREVIEW_CAPS.properties) {
      cut.truncated = true;
      continue;
    }
    properties++;
    out[property] = value;
  }
  if (images.length > 0) out['og:image'] = images;
  return out;
}

function twitterTags(head: HeadMeta, cut: Cut): Record<string, string> {
  const out: Record<string, string> = {};
  let count = 0;
  for (const [key, value] of head.twitter) {
    if (count++ >= PREVIEW_CAPS.properties) {
      cut.truncated = true;
      break;
    }
    out[key] = capped(value, cut);
  }
  return out;
}

function oembedLinks(head: HeadMeta, pageUrl: URL): UnfurlResult['oembed'] {
  const found: NonNullable<UnfurlResult['oembed']> = {};
  for (const link of head.links) {
    if (!link.rel.split(' ').includes('alternate')) continue;
    const kind =
      link.type === 'application/json+oembed'
        ? 'json'
        : link.type === 'text/xml+oembed'
          ? 'xml'
          : undefined;
    if (!kind || found[kind] !== undefined) continue;
    const url = resolveHref(link.href, pageUrl, head.baseHref);
    if (url && /^https?:$/.test(url.protocol)) found[kind] = url.href;
  }
  return found.json !== undefined || found.xml !== undefined ? found : undefined;
}
