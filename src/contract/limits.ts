// Limits that more than one layer must agree on, named once.

/**
 * How long one request to the service may take, end to end: the server's deadline for the
 * work behind a request, and the HTTP client's wait for the answer.
 */
export const DEFAULT_REQUEST_DEADLINE_MS = 30_000;
