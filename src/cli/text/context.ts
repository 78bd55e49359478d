// What every text renderer is handed besides the result.
import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import ipaddr from 'ipaddr.js';
import type { Glyphs, Style } from './style';

export interface RenderContext {
  style: Style;
  glyphs: Glyphs;
  /** the clock for relative dates ("in 23 days"); tests pass a fixed one */
  now: Date;
  /** printed columns to fold long lines at (the terminal's width); Infinity: never fold */
  width: number;
  /** the parameters the command ran with (host, url, types…), as parsed */
  params: Readonly<Record<string, string | string[] | undefined>>;
}

/** Turns one command's result into lines for people; the output ends without a newline. */
export type TextRenderer = (result: unknown, context: RenderContext) => string;

/** Types a renderer over its result shape; the registry holds them untyped. */
export function renderer<T>(render: (result: T, context: RenderContext) => string): TextRenderer {
  return (result, context) => render(result as T, context);
}

/**
 * The asked host as a fully qualified name in ASCII (IDN labels as xn--); an IP address as the
 * reverse name its PTR records live at (RFC 1035 section 3.5, RFC 3596 section 2.5), since
 * that is what a query for an address asks.
 */
export function fqdn(host: string | string[] | undefined): string {
  const name = (Array.isArray(host) ? host[0] : host) ?? '';
  const trimmed = name.trim().replace(/\.$/, '').toLowerCase();
  if (trimmed === '') return '.';
  if (isIP(trimmed) !== 0) return reverseName(trimmed);
  return `${asciiName(trimmed)}.`;
}

function reverseName(address: string): string {
  const ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv4') return `${ip.toByteArray().reverse().join('.')}.in-addr.arpa.`;
  const nibbles = ip
    .toByteArray()
    .flatMap((byte) => [byte >> 4, byte & 0xf])
    .map((n) => n.toString(16))
    .reverse();
  return `${nibbles.join('.')}.ip6.arpa.`;
}

function asciiName(name: string): string {
  // domainToASCII answers "" for a name it cannot convert; keep the input then.
  const ascii = domainToASCII(name);
  return ascii === '' ? name : ascii;
}
