// One bound for every URL-valued field of a web answer (a hop's location, final_url,
// resolved_url, canonical_url): the longest URL the service itself accepts. A page or a
// redirect can name a URL of any length; an answer holds at most this much of it and says so.

/** Characters of one URL in an answer. */
export const MAX_URL_CHARS = 8192;

/** Collects whether any bound was applied while an answer was built. */
export interface UrlCut {
  truncated: boolean;
}

/** The URL as an answer holds it: at most MAX_URL_CHARS characters; a cut is recorded. */
export function cappedUrl(url: string, cut: UrlCut): string {
  if (url.length <= MAX_URL_CHARS) return url;
  cut.truncated = true;
  return url.slice(0, MAX_URL_CHARS);
}
