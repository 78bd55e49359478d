// The base URL of a hosted service, checked before the token may go there; apart from the
// HTTP client (http.ts) so the editor can check what the user types without loading it.
import ipaddr from 'ipaddr.js';
import { LookupError } from '../contract/errors';

/** True for 127.0.0.0/8, ::1 (and its IPv4-mapped form) and localhost. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host === 'localhost.') return true;
  if (!ipaddr.isValid(host)) return false;
  return ipaddr.process(host).range() === 'loopback';
}

/**
 * Checks a configured base URL; throws `invalid_argument` naming the setting when the token
 * would not be safe on it. Returns it without a trailing slash.
 */
export function checkBaseUrl(value: string, setting: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new LookupError('invalid_argument', `${setting} is not a valid URL`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new LookupError(
      'invalid_argument',
      `${setting} must not contain a user name or password`,
    );
  }
  if (url.search !== '' || url.hash !== '') {
    throw new LookupError('invalid_argument', `${setting} must not have a query or fragment`);
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new LookupError(
      'invalid_argument',
      `${setting} must use https (http is allowed only for loopback hosts), not ${url.origin}`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new LookupError('invalid_argument', `${setting} must be an https URL`);
  }
  url.pathname = url.pathname.replace(/\/+$/, '');
  return url;
}
