// Limits and defaults every layer agrees on, each defined once. package.json repeats the DNS
// defaults for the settings UI (it cannot import); test/unit/manifest.test.ts holds them equal.

/** RFC 7208 section 4.6.4: DNS-querying terms one SPF evaluation may use. */
export const SPF_MAX_LOOKUPS = 10;

/** RFC 7208 section 4.6.4: look-ups that may find nothing before the result is permerror. */
export const SPF_MAX_VOID_LOOKUPS = 2;

/** Time to wait for one DNS answer before asking again. */
export const DNS_TIMEOUT_MS = 2500;

/** How many times one DNS question is asked before it counts as timed out. */
export const DNS_TRIES = 2;

/**
 * How long one request to the service may take, end to end: the server's deadline for the
 * work behind a request, and the HTTP client's wait for the answer.
 */
export const DEFAULT_REQUEST_DEADLINE_MS = 30_000;
