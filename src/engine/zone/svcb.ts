// SvcParams of SVCB and HTTPS (RFC 9460 section 2.1 and 7) from presentation to wire form,
// sorted by key as the wire form requires.
import { isIPv4, isIPv6 } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { Token } from './lexer';
import { unescapeOctets } from './lexer';

const KEYS: Record<string, number> = {
  mandatory: 0,
  alpn: 1,
  'no-default-alpn': 2,
  port: 3,
  ipv4hint: 4,
  ech: 5,
  ipv6hint: 6,
};

export type SvcResult = { wire: number[]; text: string } | { message: string; token: number };

function keyCode(name: string): number | undefined {
  const lower = name.toLowerCase();
  if (KEYS[lower] !== undefined) return KEYS[lower];
  const m = /^key(\d{1,5})$/.exec(lower);
  return m && Number(m[1]) <= 65535 ? Number(m[1]) : undefined;
}

export function encodeSvcParams(tokens: Token[]): SvcResult {
  const params = new Map<number, number[]>();
  const texts: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    let key = token.text;
    let value: string | undefined;
    const eq = token.text.indexOf('=');
    if (eq >= 0) {
      key = token.text.slice(0, eq);
      value = token.text.slice(eq + 1);
      // key="quoted value" arrives as two tokens: `key=` then the quoted string
      if (value === '' && tokens[i + 1]?.kind === 'quoted' && tokens[i + 1].start === token.end) {
        value = tokens[++i].text;
      }
    }
    const code = keyCode(key);
    if (code === undefined) return { message: `unknown SvcParam key "${key}"`, token: i };
    if (params.has(code)) return { message: `SvcParam "${key}" given twice`, token: i };
    const encoded = encodeValue(code, value);
    if (typeof encoded === 'string') return { message: encoded, token: i };
    params.set(code, encoded);
    texts.push(value === undefined ? key.toLowerCase() : `${key.toLowerCase()}=${value}`);
  }
  const wire: number[] = [];
  for (const code of [...params.keys()].sort((a, b) => a - b)) {
    const value = params.get(code)!;
    wire.push(code >> 8, code & 0xff, value.length >> 8, value.length & 0xff, ...value);
  }
  return { wire, text: texts.join(' ') };
}

function encodeValue(code: number, value: string | undefined): number[] | string {
  const list = () => (value ?? '').split(',').filter((v) => v !== '');
  switch (code) {
    case 0: {
      const out: number[] = [];
      for (const name of list()) {
        const c = keyCode(name);
        if (c === undefined) return `unknown key "${name}" in mandatory`;
        out.push(c >> 8, c & 0xff);
      }
      return out.length === 0 ? 'mandatory needs keys' : out;
    }
    case 1: {
      const out: number[] = [];
      for (const id of list()) {
        const octets = unescapeOctets(id) ?? [];
        out.push(octets.length, ...octets);
      }
      return out.length === 0 ? 'alpn needs protocol ids' : out;
    }
    case 2:
      return value === undefined ? [] : 'no-default-alpn takes no value';
    case 3: {
      if (value === undefined || !/^\d+$/.test(value) || Number(value) > 65535) return 'bad port';
      return [Number(value) >> 8, Number(value) & 0xff];
    }
    case 4: {
      const out: number[] = [];
      for (const a of list()) {
        if (!isIPv4(a)) return `"${a}" is not an IPv4 address`;
        out.push(...a.split('.').map(Number));
      }
      return out.length === 0 ? 'ipv4hint needs addresses' : out;
    }
    case 6: {
      const out: number[] = [];
      for (const a of list()) {
        if (!isIPv6(a)) return `"${a}" is not an IPv6 address`;
        out.push(...ipaddr.IPv6.parse(a).toByteArray());
      }
      return out.length === 0 ? 'ipv6hint needs addresses' : out;
    }
    case 5: {
      if (value === undefined || !/^[A-Za-z0-9+/]*={0,2}$/.test(value)) return 'bad ech value';
      return [...Buffer.from(value, 'base64')];
    }
    default:
      return value === undefined ? [] : (unescapeOctets(value) ?? 'bad escape');
  }
}
