// GET /redirects: every hop with its exact status and absolute Location. A refresh in the
// final page's <meta http-equiv> is reported beside the hops, never followed.
import { LookupError } from '../../contract/errors';
import { normalizeUrl } from '../names';
import type { RedirectHop, RedirectsResult } from '../../contract/shapes';
import type { MetaParams } from '../../contract/services';
import { checkLanguage, header, withSession, type ChainRequest, type WebOptions } from './fetcher';
import { discard } from './fetcher';
import { parseRefresh } from './html';
import { HTML_ACCEPT, isHtml, readHead } from './page';
import { cappedUrl, MAX_URL_CHARS, type UrlCut } from './url-cap';

/** Characters of one hop's location in an answer (the longest URL the service accepts). */
export const MAX_LOCATION_CHARS = MAX_URL_CHARS;

/** The hops as an answer holds them: each location at most MAX_URL_CHARS long. */
export function cappedHops(hops: RedirectHop[], cut: UrlCut): RedirectHop[] {
  // most chains: nothing to cut, and the hops are given as they are
  if (hops.every((hop) => hop.location.length <= MAX_URL_CHARS)) return hops;
  return hops.map((hop) =>
    hop.location.length <= MAX_URL_CHARS ? hop : { ...hop, location: cappedUrl(hop.location, cut) },
  );
}

export async function redirects(
  params: MetaParams,
  options?: WebOptions,
): Promise<RedirectsResult> {
  const start = normalizeUrl(params.url);
  const language = checkLanguage(params.language);
  return withSession(options, async (session) => {
    const request: ChainRequest = { accept: HTML_ACCEPT };
    if (language !== undefined) request.language = language;
    const chain = await session.follow(start, request);
    const cut: UrlCut = { truncated: false };
    const hops = cappedHops(chain.hops, cut);
    if (chain.error) {
      const stopped: RedirectsResult = { locations: hops, error: { code: chain.error } };
      if (cut.truncated) stopped.truncated = true;
      return stopped;
    }
    const result: RedirectsResult = {
      locations: hops,
      final_url: cappedUrl(chain.url.href, cut),
      final_status_code: chain.status,
    };
    if (cut.truncated) result.truncated = true;
    if (!chain.response) return result;
    if (!isHtml(header(chain.headers, 'content-type'))) {
      discard(chain.response);
      return result;
    }
    try {
      const { head } = await readHead(session, chain);
      const refresh = head.refresh === '' ? undefined : parseRefresh(head.refresh, chain.url);
      if (refresh) {
        result.meta_refresh = { ...refresh, url: cappedUrl(refresh.url, cut) };
        if (cut.truncated) result.truncated = true;
      }
    } catch (err) {
      // The hops are the answer; an unreadable final body only costs the refresh check.
      if (err instanceof LookupError && err.code === 'cancelled') throw err;
    }
    return result;
  });
}
