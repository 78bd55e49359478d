// Macro expansion of RFC 7208 section 7: the values behind each letter, the transformers
// (right-hand parts, reversal, delimiters), URL escaping for upper-case letters, and the
// 253-octet truncation of expanded domain names.
import ipaddr from 'ipaddr.js';
import { tokenizeMacroString } from './spf-parse';

export interface MacroContext {
  /** <sender>'s local part ("postmaster" when it had none) */
  local: string;
  /** <sender>'s domain */
  senderDomain: string;
  /** the <domain> being evaluated */
  domain: string;
  ip: ipaddr.IPv4 | ipaddr.IPv6;
  helo: string;
  /** the receiving host's domain, for %{r} */
  receiver: string;
  /** seconds since the epoch, for %{t} */
  now: number;
  /** the validated name of <ip> (%{p}), resolved only when a macro asks for it */
  validatedName: () => Promise<string>;
}

/** The value of one macro letter before transformers. */
async function letterValue(letter: string, ctx: MacroContext): Promise<string> {
  switch (letter) {
    case 's':
      return `${ctx.local}@${ctx.senderDomain}`;
    case 'l':
      return ctx.local;
    case 'o':
      return ctx.senderDomain;
    case 'd':
      return ctx.domain;
    case 'i':
      return dottedIp(ctx.ip);
    case 'p':
      return ctx.validatedName();
    case 'v':
      return ctx.ip.kind() === 'ipv4' ? 'in-addr' : 'ip6';
    case 'h':
      return ctx.helo;
    case 'c':
      return ctx.ip.toString();
    case 'r':
      return ctx.receiver;
    case 't':
      return String(ctx.now);
    default:
      return '';
  }
}

/** %{i}: dotted quad for IPv4, dotted nibbles for IPv6 (RFC 7208 section 7.3). */
export function dottedIp(ip: ipaddr.IPv4 | ipaddr.IPv6): string {
  if (ip.kind() === 'ipv4') return ip.toString();
  return (ip as ipaddr.IPv6)
    .toByteArray()
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('')
    .split('')
    .join('.');
}

// unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~" (RFC 3986); everything else is escaped.
function urlEscape(value: string): string {
  return Array.from(Buffer.from(value, 'utf8'))
    .map((b) => {
      const ch = String.fromCharCode(b);
      return /[A-Za-z0-9\-._~]/.test(ch) ? ch : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
    })
    .join('');
}

/**
 * Expands a macro-string. Throws MacroSyntaxError when it is not valid;
 * callers validated records at parse time, so only explanation text can still fail here.
 */
export async function expandMacroString(
  text: string,
  ctx: MacroContext,
  exp: boolean,
): Promise<string> {
  let out = '';
  for (const token of tokenizeMacroString(text, exp)) {
    if (typeof token === 'string') {
      out += token;
      continue;
    }
    const value = await letterValue(token.letter, ctx);
    const splitter = new RegExp(`[${token.delimiters.replace(/[\\\]^-]/g, '\\$&')}]`);
    let parts = value.split(splitter);
    if (token.reverse) parts = parts.reverse();
    if (token.digits !== undefined && token.digits < parts.length) {
      parts = parts.slice(parts.length - token.digits);
    }
    const joined = parts.join('.');
    out += token.escape ? urlEscape(joined) : joined;
  }
  return out;
}

/** Expands a domain-spec into a query name: no trailing dot, at most 253 octets. */
export async function expandDomainSpec(spec: string, ctx: MacroContext): Promise<string> {
  let name = await expandMacroString(spec, ctx, false);
  if (name.endsWith('.')) name = name.slice(0, -1);
  // Section 7.3: drop whole labels from the left until the name fits.
  while (name.length > 253 && name.includes('.')) name = name.slice(name.indexOf('.') + 1);
  return name;
}
