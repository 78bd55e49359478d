// GET /icons: the icons a page links (every relation the contract lists), its web app
// manifest's icons and /favicon.ico when it exists, each measured from its decoded pixels.
import { LookupError } from '../../contract/errors';
import type { Icon, IconsResult } from '../../contract/shapes';
import type { MetaParams } from '../../contract/services';
import { checkLanguage, withSession, type WebOptions, type WebSession } from './fetcher';
import { discard } from './fetcher';
import { resolveHref, type HeadMeta } from './html';
import { decodeDataUri, fetchImage, measureImage } from './image';
import { fetchPage, type FetchedPage } from './page';
import { cappedUrl } from './url-cap';

const ICON_RELS = new Set([
  'icon',
  'apple-touch-icon',
  'apple-touch-icon-precomposed',
  'mask-icon',
]);
const PROBE_CONCURRENCY = 4;
/**
 * Most icons one answer lists. Past the probe cap an icon costs only its markup, but a page
 * can link thousands; the answer then says `truncated: true`.
 */
export const MAX_LISTED_ICONS = 100;

interface Candidate {
  rel: string;
  url: string;
  sizes: string;
  /** /favicon.ico guessed, not linked: kept only when it really is an image */
  guessed?: boolean;
}

export async function icons(params: MetaParams, options?: WebOptions): Promise<IconsResult> {
  const language = checkLanguage(params.language);
  return withSession(options, async (session) => {
    const page = await fetchPage(session, params.url, language);
    if (page.chain.error) throw loopError(page);
    return collectIcons(session, page);
  });
}

export function loopError(page: FetchedPage): LookupError {
  return new LookupError(
    'upstream_error',
    page.chain.error === 'redirect_loop'
      ? `${page.chain.url.hostname} redirects in a loop`
      : `${page.chain.url.hostname} redirects more than the limit allows`,
  );
}

/** Icons of an already fetched page (shared with unfurl for its icon_url). */
export async function collectIcons(session: WebSession, page: FetchedPage): Promise<IconsResult> {
  const head = page.head;
  const pageUrl = page.chain.url;
  const candidates: Candidate[] = head ? linkedIcons(head, pageUrl) : [];
  if (head) candidates.push(...(await manifestIcons(session, head, pageUrl)));
  candidates.push({
    rel: 'favicon',
    url: new URL('/favicon.ico', pageUrl).href,
    sizes: '',
    guessed: true,
  });
  const unique = dedupe(candidates);
  const probed = unique.slice(0, session.limits.maxIcons);
  const found = await mapLimited(probed, PROBE_CONCURRENCY, (c) => probe(session, c));
  const list: Icon[] = found.filter((icon): icon is Icon => icon !== undefined);
  // Past the probe cap an icon is listed from its markup alone, up to the list cap.
  let truncated = false;
  for (const c of unique.slice(session.limits.maxIcons)) {
    if (c.guessed) continue;
    if (list.length >= MAX_LISTED_ICONS) {
      truncated = true;
      break;
    }
    list.push({ rel: c.rel, url: c.url, ...sizesAttribute(c.sizes) });
  }
  list.sort((a, b) => b.width - a.width || (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
  const canonical = head ? linkHref(head, pageUrl, 'canonical') : undefined;
  const cut = { truncated };
  const result: IconsResult = {
    canonical_url: cappedUrl(canonical ?? '', cut),
    icon_url: bestIcon(list),
    icons: list,
  };
  if (cut.truncated) result.truncated = true;
  return result;
}

function linkedIcons(head: HeadMeta, pageUrl: URL): Candidate[] {
  const out: Candidate[] = [];
  for (const link of head.links) {
    if (!link.rel.split(' ').some((token) => ICON_RELS.has(token))) continue;
    const url = link.href.startsWith('data:')
      ? link.href
      : resolveHref(link.href, pageUrl, head.baseHref)?.href;
    if (url === undefined || !/^(https?|data):/i.test(url)) continue;
    out.push({ rel: link.rel, url, sizes: link.sizes ?? '' });
  }
  return out;
}

/** The `rel` href resolved, or undefined. */
export function linkHref(head: HeadMeta, pageUrl: URL, rel: string): string | undefined {
  const link = head.links.find((l) => l.rel.split(' ').includes(rel));
  if (!link) return undefined;
  const url = resolveHref(link.href, pageUrl, head.baseHref);
  return url && /^https?:$/.test(url.protocol) ? url.href : undefined;
}

async function manifestIcons(
  session: WebSession,
  head: HeadMeta,
  pageUrl: URL,
): Promise<Candidate[]> {
  const href = linkHref(head, pageUrl, 'manifest');
  if (href === undefined) return [];
  const manifestUrl = new URL(href);
  try {
    const end = await session.follow(manifestUrl, {
      accept: 'application/manifest+json,application/json;q=0.9,*/*;q=0.5',
    });
    if (!end.response || end.status < 200 || end.status >= 300) {
      if (end.response) discard(end.response);
      return [];
    }
    const body = await session.readAll(end, session.limits.maxManifestBytes);
    const manifest = JSON.parse(body.toString('utf8').replace(/^\uFEFF/, '')) as {
      icons?: unknown;
    };
    if (!Array.isArray(manifest.icons)) return [];
    const out: Candidate[] = [];
    for (const entry of manifest.icons as Array<Record<string, unknown>>) {
      if (typeof entry?.src !== 'string' || entry.src.trim() === '') continue;
      const url = resolveHref(entry.src.trim(), end.url, '');
      if (!url || !/^https?:$/.test(url.protocol)) continue;
      out.push({
        rel: 'manifest',
        url: url.href,
        sizes: typeof entry.sizes === 'string' ? entry.sizes : '',
      });
    }
    return out;
  } catch (err) {
    if (session.signal.aborted) throw err;
    // A broken manifest leaves the page's other icons standing.
    return [];
  }
}

async function probe(session: WebSession, candidate: Candidate): Promise<Icon | undefined> {
  // An icon that exists but is over the byte cap stays in the list, unmeasured, with a reason.
  const tooLarge: Icon = {
    rel: candidate.rel,
    url: candidate.url,
    height: 0,
    width: 0,
    reason: 'too_large',
  };
  let bytes: Buffer | undefined;
  if (candidate.url.startsWith('data:')) {
    if (dataUriTooLarge(candidate.url, session.limits.maxImageBytes)) return tooLarge;
    bytes = decodeDataUri(candidate.url, session.limits.maxImageBytes);
  } else {
    try {
      const image = await fetchImage(session, new URL(candidate.url));
      if (image.status < 200 || image.status >= 300) {
        // A guessed /favicon.ico that is not there is no icon; one the page declares is a
        // broken link its author wants to see, listed unmeasured with the status it answered.
        if (candidate.guessed) return undefined;
        const { rel, url } = candidate;
        return { rel, url, height: 0, width: 0, reason: 'http_error', status: image.status };
      }
      bytes = image.bytes;
    } catch (err) {
      if (session.signal.aborted) throw session.toError(err, new URL(candidate.url));
      if (err instanceof LookupError && err.code === 'response_too_large') return tooLarge;
      return undefined;
    }
  }
  const size = bytes ? measureImage(bytes) : undefined;
  if (!size) {
    return candidate.guessed
      ? undefined
      : { rel: candidate.rel, url: candidate.url, ...sizesAttribute(candidate.sizes) };
  }
  return {
    rel: candidate.rel,
    url: candidate.url,
    height: size.height,
    width: size.width,
    format: size.format,
  };
}

/** The largest size a `sizes` attribute names ("16x16 32x32"), 0 × 0 when none. */
export function sizesAttribute(sizes: string): { height: number; width: number } {
  let best = { height: 0, width: 0 };
  for (const token of sizes.toLowerCase().split(/\s+/)) {
    const match = /^(\d{1,5})x(\d{1,5})$/.exec(token);
    if (!match) continue;
    const width = Number(match[1]);
    const height = Number(match[2]);
    if (width * height > best.width * best.height) best = { height, width };
  }
  return best;
}

/**
 * Among the icons that were fetched and decoded (those with a format): the largest square
 * raster, then the largest of any kind; "" when none was decoded. A `sizes` attribute alone
 * never makes an icon the best: it may name a file that is missing or is no image at all.
 */
export function bestIcon(list: Icon[]): string {
  const area = (i: Icon) => i.width * i.height;
  const decoded = list.filter((i) => i.format !== undefined && area(i) > 0);
  const raster = decoded.filter((i) => i.format !== 'svg' && i.width === i.height);
  const pool = raster.length > 0 ? raster : decoded;
  if (pool.length === 0) return '';
  return pool.reduce((best, i) => (area(i) > area(best) ? i : best)).url;
}

/** Whether a data: URI's payload decodes to more than `maxBytes`. */
function dataUriTooLarge(uri: string, maxBytes: number): boolean {
  const match = /^data:[^,]*?(;base64)?,/is.exec(uri);
  if (!match) return false;
  const payload = uri.slice(match[0].length);
  if (match[1]) return Math.floor((payload.replace(/[=\s]/g, '').length * 3) / 4) > maxBytes;
  try {
    return Buffer.byteLength(decodeURIComponent(payload), 'utf8') > maxBytes;
  } catch {
    return false; // not decodable: listed like any icon that is no image
  }
}

function dedupe(candidates: Candidate[]): Candidate[] {
  const seen = new Set<string>();
  return candidates.filter((c) => (seen.has(c.url) ? false : (seen.add(c.url), true)));
}

async function mapLimited<T, R>(
  items: T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
