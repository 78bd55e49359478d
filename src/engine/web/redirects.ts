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

/** Characters of one hop's location in an answer (the longest URL the service accepts). */
export const MAX_LOCATION_CHARS = 8192;

/** The hops as an answer holds them: each location at most MAX_LOCATION_CHARS long. */
function cappedHops(hops: RedirectHop[]): { hops: RedirectHop[]; truncated: boolean } {
  let truncated = false;
  const out = hops.map((hop) => {
    if (hop.location.length <= MAX_LOCATION_CHARS) return hop;
    truncated = true;
    return { ...hop, location: hop.location.slice(0, MAX_LOCATION_CHARS) };
  });
  return { hops: out, truncated };
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
    const { hops, truncated } = cappedHops(chain.hops);
    if (chain.error) {
      const stopped: RedirectsResult = { locations: hops, error: { code: chain.error } };
      if (truncated) stopped.truncated = true;
      return stopped;
    }
    const result: RedirectsResult = {
      locations: hops,
      final_url: chain.url.href,
      final_status_code: chain.status,
    };
    if (truncated) result.truncated = true;
    if (!chain.response) return result;
    if (!isHtml(header(chain.headers, 'content-type'))) {
      discard(chain.response);
      return result;
    }
    try {
      const { head } = await readHead(session, chain);
      const refresh = head.refresh === '' ? undefined : parseRefresh(head.refresh, chain.url);
      if (refresh) result.meta_refresh = refresh;
    } catch (err) {
      // The hops are the answer; an unreadable final body only costs the refresh check.
      if (err instanceof LookupError && err.code === 'cancelled') throw err;
    }
    return result;
  });
}
