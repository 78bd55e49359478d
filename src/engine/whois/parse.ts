// Port-43 WHOIS text -> the seed's WHOIS shape. Pure: no I/O, never throws on odd input (only
// the deliberate not_found / rate_limited LookupErrors). The reply is read into records
// (reader.ts, record.ts), the records built into the result (build.ts), and a reply without
// registration data classified by what it says (reply.ts).
import { LookupError } from '../../contract/errors';
import type { WhoisResult } from '../../contract/shapes';
import { build, type ParseOptions } from './build';
import { readRecords } from './reader';
import { classifyReply } from './reply';

export type { ParseOptions } from './build';
export { normalizeKey } from './keys';
export { classifyReply, findReferral, isNotFound, isRateLimited } from './reply';

/**
 * Parses a registry or registrar reply into exactly one of four kinds: a result (the name is
 * registered, or held by the registry, and the reply shows it), `not_found` (not registered:
 * free, or reserved without a registration), `rate_limited` (refused for the query rate, a quota
 * or a blocked client, with the server's words) or `upstream_error` (anything it cannot tell).
 */
export function parseWhois(text: string, options: ParseOptions = {}): WhoisResult {
  const result = build(readRecords(text), options, text);
  // An object literal, not a spread: spreading cost as much as reading the dates.
  if (result !== undefined && result.data) {
    return { domain: result.domain, registrar: result.registrar, source: 'whois', raw: text };
  }
  const said = classifyReply(text);
  // A record with only a date of change (RIPE-style "changed:") is registered unless the reply
  // says otherwise ("Status: free", "organisation: Not assigned").
  if (
    result !== undefined &&
    said === undefined &&
    result.domain.updated_date !== undefined &&
    !(result.domain.status ?? []).some((st) => FREE_STATUS.test(st))
  ) {
    return { domain: result.domain, registrar: result.registrar, source: 'whois', raw: text };
  }
  if (said?.kind === 'rate_limited') {
    throw new LookupError('rate_limited', `The WHOIS server refused the query: ${said.line}`);
  }
  const status = result?.domain.status ?? [];
  if (said?.kind === 'not_found' || status.some((s) => FREE_STATUS.test(s))) {
    throw new LookupError('not_found', 'The domain is not registered');
  }
  if (result !== undefined && result.domain.domain !== undefined && status.length > 0) {
    return { domain: result.domain, registrar: result.registrar, source: 'whois', raw: text };
  }
  if (said?.kind === 'reserved') {
    throw new LookupError(
      'not_found',
      `The domain is not registered, and the registry holds it back: ${said.line}`,
    );
  }
  throw new LookupError(
    'upstream_error',
    'The WHOIS server sent a reply with no registration data',
  );
}

/** A status that says the name is free ("Domain Status: Available"). */
const FREE_STATUS = /^(available|free|notregistered|noobjectfound|unassigned|notfound)$/;
