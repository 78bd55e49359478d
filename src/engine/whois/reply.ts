// What kind of reply a text without registration data is (not registered, refused for the
// query rate), and where a registry's reply refers the query next. Pure, like parse.ts.

const NOT_FOUND = [
  /^\W*no match(es)?\b/im,
  /^\W*not found\b/im,
  /^\W*no found\b/im,
  /no entries found/i,
  /^\W*no data found/im,
  /domain not found/i,
  /^\W*no such domain/im,
  /the queried object does not exist/i,
  /^\W*object does not exist/im,
  /no object found/i,
  /^\W*no matching record/im,
  /domain name is not registered/i,
  /this domain name has not been registered/i,
  /was not found in the registry/i,
  /^\W*status:\s*(free|available|not registered|no object found)\s*$/im,
  /^\W*query_status:\s*220 available/im,
  /\bis free\s*$/im,
  /^\W*domain ".*" not found/im,
  /^\W*not available for (second level )?registration/im,
  /^\W*nothing found for this query/im,
  /\bis available for registration/i,
  /not known in .* registry/i,
  /^\W*no information available about domain name/im,
  /this query returned 0 objects/i,
  /^\W*(the )?domain (name )?(has not been|is not) registered/im,
];

/**
 * One pass over the reply instead of one per pattern. Every pattern is case-insensitive, and the
 * multi-line flag changes only those anchored with ^ or $ (which have it already), so the
 * alternation matches exactly when one of the patterns does.
 */
function anyOf(patterns: RegExp[]): RegExp {
  return new RegExp(patterns.map((re) => `(?:${re.source})`).join('|'), 'im');
}

const NOT_FOUND_ANY = anyOf(NOT_FOUND);

/** True when the reply says the name is not registered. */
export function isNotFound(text: string): boolean {
  return NOT_FOUND_ANY.test(text);
}

const RATE_LIMITED = [
  /limit exceeded/i,
  /quota exceeded/i,
  /too many (requests|queries|connections)/i,
  /query rate.*exceeded/i,
  /exceeded (the|your) (query|request|rate|allowed)/i,
  /rate limit (reached|exceeded)/i,
  /you have been rate.?limited/i,
  /please (slow down|try again later)/i,
  /excessive (querying|queries)/i,
  /access control limit reached/i,
  /number of (allowed )?queries .*exceeded/i,
  /maximum (number of )?(queries|requests|connections).*(reached|exceeded)/i,
];

const RATE_LIMITED_ANY = anyOf(RATE_LIMITED);

/** True when the reply is a refusal because of the client's query rate. */
export function isRateLimited(text: string): boolean {
  return RATE_LIMITED_ANY.test(text);
}

// Built once (a regex literal in a function body is a new object on every call).
const REFERRAL = [
  /^\s*registrar whois server:\s*(\S+)/im,
  /^\s*whois server:\s*(\S+)/im,
  /^\s*referralserver:\s*(\S+)/im,
  /^\s*refer:\s*(\S+)/im,
  /^\s*whois:\s*(\S+)/im,
];

/** The next server a registry reply points to, as host or host:port, when it names one. */
export function findReferral(text: string): string | undefined {
  for (const re of REFERRAL) {
    const m = re.exec(text);
    if (!m) continue;
    const target = m[1]
      .replace(/^(r?whois):\/\//i, '')
      .replace(/\/.*$/, '')
      .toLowerCase();
    if (/^[a-z0-9.-]+\.[a-z]{2,}(:\d{1,5})?$/.test(target)) return target;
  }
  return undefined;
}
