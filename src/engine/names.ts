// Hostname and URL rules of docs/contract.md ("Hostnames", "Web metadata service").
import { domainToASCII } from 'node:url';
import { isIP } from 'node:net';
import { LookupError, printable } from '../contract/errors';

const MAX_NAME_OCTETS = 253;
const MAX_LABEL_OCTETS = 63;
export const MAX_URL_BYTES = 8 * 1024;

// Letters, digits, hyphen and underscore (for _dmarc, _domainkey, SRV owners); '*' only as a
// whole leftmost label so wildcard owners from zone files can still be asked about.
const LABEL = /^(?:\*|[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?)$/;

/**
 * Validates a hostname and returns it in A-label form, lower case, without the trailing dot.
 * Throws `invalid_host` for anything a resolver would not accept as a name.
 */
export function normalizeHost(input: string): string {
  if (typeof input !== 'string') throw new LookupError('invalid_host', 'A hostname is required');
  const trimmed = input.trim();
  if (trimmed === '') throw new LookupError('invalid_host', 'A hostname is required');
  if (/[\u0000-\u001f\u007f\s]/.test(trimmed)) {
    throw new LookupError('invalid_host', 'The hostname contains control or space characters');
  }
  if (trimmed === '.') return '.';
  const withoutDot = trimmed.endsWith('.') ? trimmed.slice(0, -1) : trimmed;
  if (withoutDot.split('.').some((label) => label === '')) {
    throw new LookupError('invalid_host', `"${printable(input)}" has an empty label`);
  }
  // Only non-ASCII names go through IDNA; WHATWG's domainToASCII rejects some legal DNS
  // names (leading underscores after punycode checks) that plain ASCII never needs converted.
  const ascii = /^[\x00-\x7f]*$/.test(withoutDot)
    ? withoutDot.toLowerCase()
    : toALabels(input, withoutDot);
  for (const label of ascii.split('.')) {
    if (label.length > MAX_LABEL_OCTETS) {
      throw new LookupError(
        'invalid_host',
        `The label "${label.slice(0, 20)}…" is longer than 63 octets`,
      );
    }
    if (!LABEL.test(label)) {
      throw new LookupError('invalid_host', `"${printable(input)}" is not a valid hostname`);
    }
  }
  if (ascii.length > MAX_NAME_OCTETS) {
    throw new LookupError('invalid_host', 'The hostname is longer than 253 octets');
  }
  return ascii;
}

function toALabels(original: string, name: string): string {
  const ascii = domainToASCII(name);
  if (ascii === '') {
    throw new LookupError(
      'invalid_host',
      `"${printable(original)}" is not a valid internationalised name`,
    );
  }
  return ascii;
}

/** The name with a trailing dot, as the contract writes every name-valued field. */
export function fqdn(name: string): string {
  if (name === '' || name === '.') return '.';
  return name.endsWith('.') ? name : `${name}.`;
}

/** The reverse-lookup name of an IP address (in-addr.arpa / ip6.arpa). */
export function reverseName(ip: string): string {
  const version = isIP(ip);
  if (version === 4) return `${ip.split('.').reverse().join('.')}.in-addr.arpa`;
  if (version === 6) {
    const groups = expandIpv6(ip);
    return `${groups.join('').split('').reverse().join('.')}.ip6.arpa`;
  }
  throw new LookupError('invalid_host', `"${printable(ip)}" is not an IP address`);
}

function expandIpv6(ip: string): string[] {
  let address = ip;
  // An embedded IPv4 tail (::ffff:192.0.2.1) becomes two hex groups.
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (v4?.[1]) {
    const [a, b, c, d] = v4[1].split('.').map(Number) as [number, number, number, number];
    address =
      address.slice(0, -v4[1].length) +
      `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = address.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups = [
    ...headGroups,
    ...Array<string>(tail === undefined ? 0 : missing).fill('0'),
    ...tailGroups,
  ];
  return groups.map((g) => g.padStart(4, '0').toLowerCase());
}

/**
 * Normalises a URL as the web metadata service takes it: `https://` when no scheme is given,
 * only http and https, at most 8 KB. Throws `invalid_url`.
 */
export function normalizeUrl(input: string): URL {
  if (typeof input !== 'string' || input.trim() === '') {
    throw new LookupError('invalid_url', 'A URL is required');
  }
  const trimmed = input.trim();
  if (Buffer.byteLength(trimmed, 'utf8') > MAX_URL_BYTES) {
    throw new LookupError('invalid_url', 'The URL is longer than 8 KB');
  }
  if (/[\u0000-\u001f\u007f]/.test(trimmed)) {
    throw new LookupError('invalid_url', 'The URL contains control characters');
  }
  const hasScheme = /^[a-z][a-z0-9+.-]*:/i.test(trimmed) && !/^[^:/]+:\d+(?:[/?#]|$)/.test(trimmed);
  const candidate = hasScheme ? trimmed : `https://${trimmed.replace(/^\/\//, '')}`;
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    throw new LookupError('invalid_url', `"${printable(input)}" is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new LookupError(
      'invalid_url',
      `Only http and https URLs can be fetched, not ${url.protocol}`,
    );
  }
  if (url.hostname === '') throw new LookupError('invalid_url', 'The URL has no host');
  if (!hasScheme && isBareWord(url)) {
    throw new LookupError(
      'invalid_url',
      `"${printable(input)}" is not a URL: give a domain name (example.com) or a whole URL (http://intranet/)`,
    );
  }
  return url;
}

/**
 * A word given without a scheme, port or path and without a dot ("not-a-url") is not read as
 * a single-label host name: names on the web have a dot. One given as a URL
 * (http://intranet/) is taken as it is, and so is localhost (RFC 6761 section 6.3).
 */
function isBareWord(url: URL): boolean {
  return (
    !url.hostname.includes('.') &&
    !url.hostname.startsWith('[') &&
    url.hostname !== 'localhost' &&
    url.port === '' &&
    url.pathname === '/' &&
    url.search === '' &&
    url.hash === ''
  );
}
