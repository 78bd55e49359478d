// GET /meta/link: one link's verdict for the workspace check. HEAD first (no body moves); GET
// when HEAD is refused, or when the page must be read to find the fragments asked about. The
// answer carries what a checker decides with: the last status, the hops, a Retry-After, and
// the fragments the page lacks. Waiting and retrying are the caller's: it knows the host's
// other links.
import { Parser } from 'htmlparser2';
import { LookupError } from '../../contract/errors';
import type { LinkParams } from '../../contract/services';
import type { LinkResult } from '../../contract/shapes';
import { normalizeUrl } from '../names';
import {
  discard,
  header,
  WebSession,
  type ChainEnd,
  type ChainRequest,
  type WebOptions,
} from './fetcher';
import { HTML_ACCEPT, isHtml } from './page';
import { cappedHops } from './redirects';
import { cappedUrl, type UrlCut } from './url-cap';

/** Fragments one call may ask about (a page's links to itself rarely pass a few dozen). */
export const MAX_FRAGMENTS = 256;
/** A Retry-After beyond this is reported as this (a day): the caller decides whether to wait. */
const MAX_RETRY_AFTER_SECONDS = 86_400;
const HEAD: ChainRequest = Object.freeze({ accept: HTML_ACCEPT, method: 'HEAD' });
const GET: ChainRequest = Object.freeze({ accept: HTML_ACCEPT, method: 'GET' });
/** The GET after a refused HEAD, when no fragment is looked for: its status is the verdict. */
const GET_STATUS: ChainRequest = Object.freeze({
  accept: HTML_ACCEPT,
  method: 'GET',
  statusOnly: true,
});

export async function link(params: LinkParams, options?: WebOptions): Promise<LinkResult> {
  const start = normalizeUrl(params.url);
  const fragments = params.fragments?.length ? [...new Set(params.fragments)] : [];
  if (fragments.length > MAX_FRAGMENTS) {
    throw new LookupError('invalid_argument', `at most ${MAX_FRAGMENTS} fragments a call`);
  }
  const wanted = fragments.filter((f) => !alwaysPresent(f));
  // The session is handled here rather than through withSession: a check makes thousands of
  // these calls, and each layer of async calls is objects and turns per link.
  const session = new WebSession(options);
  let result: LinkResult;
  try {
    if (wanted.length === 0) {
      const head = await session.follow(start, HEAD);
      result = refusedHead(head) ? await getVerdict(session, start, wanted) : verdict(head, 'HEAD');
    } else result = await getVerdict(session, start, wanted);
  } finally {
    session.close();
  }
  return result;
}

/** The verdict of a GET (HEAD refused, or fragments to look for in the page). */
async function getVerdict(session: WebSession, start: URL, wanted: string[]): Promise<LinkResult> {
  if (wanted.length === 0) return verdict(await session.follow(start, GET_STATUS), 'GET');
  const got = await session.follow(start, GET);
  const result = verdict(got, 'GET');
  if (!got.response) return result;
  if (wanted.length === 0 || got.status >= 400 || !isHtml(header(got.headers, 'content-type'))) {
    discard(got.response);
    return result;
  }
  const anchors = new AnchorCollector(wanted);
  await session.readBody(got, session.limits.maxBodyBytes, (chunk) => anchors.write(chunk));
  const missing = anchors.missing();
  if (missing.length > 0) result.missing_fragments = missing;
  return result;
}

/** HEAD is refused by a 405 or 501, and many servers answer it with an error GET does not. */
function refusedHead(end: ChainEnd): boolean {
  if (end.error) return false;
  return end.status >= 400 && end.status !== 429;
}

function verdict(end: ChainEnd, method: 'HEAD' | 'GET'): LinkResult {
  const cut: UrlCut = { truncated: false };
  const locations = cappedHops(end.hops, cut);
  const result: LinkResult = { status: end.error ? 0 : end.status, method, locations };
  if (end.error) {
    result.error = { code: end.error };
    if (cut.truncated) result.truncated = true;
    return result;
  }
  result.final_url = cappedUrl(end.url.href, cut);
  if (cut.truncated) result.truncated = true;
  if (end.status === 429 || end.status === 503) {
    const seconds = retryAfterSeconds(header(end.headers, 'retry-after'), Date.now());
    if (seconds !== undefined) result.retry_after = seconds;
  }
  return result;
}

/** RFC 9110 section 10.2.3: delay-seconds or an HTTP-date; anything else is no advice. */
export function retryAfterSeconds(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  let seconds: number;
  if (/^\d+$/.test(text)) seconds = Number(text);
  else {
    const at = Date.parse(text);
    if (Number.isNaN(at) || !/[a-z]/i.test(text)) return undefined;
    seconds = Math.max(0, Math.ceil((at - now) / 1000));
  }
  return Math.min(seconds, MAX_RETRY_AFTER_SECONDS);
}

/**
 * The empty fragment and "top" scroll to the top of any page (HTML, "scroll to the fragment");
 * a text directive (":~:text=") is matched against rendered text, which a checker cannot judge.
 */
function alwaysPresent(fragment: string): boolean {
  return fragment === '' || fragment.toLowerCase() === 'top' || fragment.startsWith(':~:');
}

/**
 * Reads a page's id and name attributes until every fragment asked for is found. GitHub renders
 * a Markdown heading's id as "user-content-" + slug and its script scrolls "#slug" there, so
 * that form counts as present too.
 */
class AnchorCollector {
  private readonly pending: Map<string, string>;
  private readonly decoder = new TextDecoder('utf-8');
  private readonly parser: Parser;

  constructor(fragments: string[]) {
    this.pending = new Map(fragments.map((f) => [decodeFragment(f), f]));
    this.parser = new Parser(
      {
        onattribute: (name, value) => {
          if (name !== 'id' && name !== 'name') return;
          this.pending.delete(value);
          if (value.startsWith('user-content-')) this.pending.delete(value.slice(13));
        },
      },
      { decodeEntities: true, lowerCaseAttributeNames: true },
    );
  }

  /** Feeds bytes; true once nothing is missing (the rest of the page need not be read). */
  write(chunk: Buffer): boolean {
    this.parser.write(this.decoder.decode(chunk, { stream: true }));
    return this.pending.size === 0;
  }

  missing(): string[] {
    this.parser.end();
    return [...this.pending.values()];
  }
}

function decodeFragment(fragment: string): string {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}
