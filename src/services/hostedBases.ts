// The two base URLs of a hosted service from the one address the user gives; apart from the
// check that asks the service (hostedCheck.ts) so the editor validates as the user types
// without loading the HTTP client.
import { checkBaseUrl } from './baseUrl';

export interface HostedBases {
  /** the origin (and any path prefix) the user gave, without a trailing slash */
  origin: string;
  domainApiBaseUrl: string;
  metaApiBaseUrl: string;
}

/**
 * The service's two base URLs from the one address `hostlens serve` listens on. A pasted
 * `/domain` or `/meta` base is taken back to its origin. Throws `invalid_argument` when the
 * token would not be safe there (http other than loopback, credentials, a query).
 */
export function hostedBases(address: string): HostedBases {
  const url = checkBaseUrl(address.trim(), 'The service address');
  url.pathname = url.pathname.replace(/\/(?:domain|meta)$/i, '');
  const origin = `${url.origin}${url.pathname}`.replace(/\/+$/, '');
  return { origin, domainApiBaseUrl: `${origin}/domain`, metaApiBaseUrl: `${origin}/meta` };
}
