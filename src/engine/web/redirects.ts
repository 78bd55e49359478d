// GET /redirects: every hop with its exact status and absolute Location. A refresh in the
// final page's <meta http-equiv> is reported beside the hops, never followed.
import { LookupError } from '../../contract/errors';
import { normalizeUrl } from '../names';
import type { RedirectsResult } from '../../contract/shapes';
import type { MetaParams } from '../../contract/services';
import { checkLanguage, header, withSession, type ChainRequest, type WebOptions } from './fetcher';
import { discard } from './fetcher';
import { parseRefresh } from './html';
import { HTML_ACCEPT, isHtml, readHead } from './page';

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
    if (chain.error) return { locations: chain.hops, error: { code: chain.error } };
    const result: RedirectsResult = {
      locations: chain.hops,
      final_url: chain.url.href,
      final_status_code: chain.status,
    };
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
