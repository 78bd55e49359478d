// SvcParams of SVCB and HTTPS (RFC 9460 section 2.1 and 7): presentation to wire form, sorted
// by key as the wire form requires, and wire form back to presentation as BIND prints it.
import { escapedText, unescapeOctets } from '../presentation';
import { ipv6Text, readIPv4, readIPv6 } from './addresses';
import type { Token } from './reader';

/** The keys of IANA's "Service Parameter Keys (SvcParamKeys)" registry that have a mnemonic. */
const KEYS: Record<string, number> = {
  mandatory: 0,
  alpn: 1,
  'no-default-alpn': 2,
  port: 3,
  ipv4hint: 4,
  ech: 5,
  ipv6hint: 6,
  dohpath: 7, // RFC 9461
  ohttp: 8, // RFC 9540
};

/** The keys printed by mnemonic: RFC 9460's; later ones as keyNNNNN, the form BIND 9.18 prints. */
const PRINTED_BY_NAME = 6;

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
  const inconsistent = consistency(params);
  if (inconsistent !== undefined) return { message: inconsistent, token: 0 };
  const wire: number[] = [];
  for (const code of [...params.keys()].sort((a, b) => a - b)) {
    const value = params.get(code)!;
    wire.push(code >> 8, code & 0xff, value.length >> 8, value.length & 0xff, ...value);
  }
  return { wire, text: texts.join(' ') };
}

/**
 * RFC 9460 section 8: the keys `mandatory` lists are present, once each, itself not among them;
 * section 7.1.1: no-default-alpn only beside alpn.
 */
function consistency(params: Map<number, number[]>): string | undefined {
  const mandatory = params.get(0) ?? [];
  const listed = new Set<number>();
  for (let i = 0; i < mandatory.length; i += 2) {
    const code = (mandatory[i] << 8) | mandatory[i + 1];
    if (code === 0) return 'mandatory lists itself';
    if (listed.has(code)) return `mandatory lists ${keyName(code)} twice`;
    if (!params.has(code)) return `mandatory lists ${keyName(code)}, which is not given`;
    listed.add(code);
  }
  if (params.has(2) && !params.has(1)) return 'no-default-alpn without alpn';
  return undefined;
}

/**
 * A value-list (RFC 9460 appendix A.1): the value read as a character-string, then cut at each
 * comma that no backslash escapes, `\\,` and `\\\\` standing for a comma and a backslash
 * inside an item (so `alpn=h1\\\\,h2` is the one id "h1,h2"). Items are octets; an empty item
 * is an error, as BIND has it.
 */
function valueList(value: string | undefined): number[][] | string {
  const octets = unescapeOctets(value ?? '');
  if (octets === undefined) return 'bad escape in the value';
  const items: number[][] = [];
  let item: number[] = [];
  for (let i = 0; i < octets.length; i++) {
    const c = octets[i];
    if (c === BACKSLASH && i + 1 < octets.length) {
      item.push(octets[++i]);
    } else if (c === COMMA) {
      if (item.length === 0) return 'an empty item in the value list';
      items.push(item);
      item = [];
    } else {
      item.push(c);
    }
  }
  if (item.length === 0) return octets.length === 0 ? [] : 'an empty item in the value list';
  items.push(item);
  return items;
}

const BACKSLASH = 0x5c;
const COMMA = 0x2c;

/** An item's octets as text (key names, addresses: ASCII when well formed). */
function itemText(item: number[]): string {
  return String.fromCharCode(...item);
}

/** An alpn-id as a value-list item and then as a character-string (appendix A.1, A.2). */
function alpnIdText(id: Uint8Array): string {
  const escaped: number[] = [];
  for (const c of id) {
    if (c === BACKSLASH || c === COMMA) escaped.push(BACKSLASH);
    escaped.push(c);
  }
  return escapedText(escaped);
}

function encodeValue(code: number, value: string | undefined): number[] | string {
  const items = valueList(value);
  const list = () => (typeof items === 'string' ? [] : items.map(itemText));
  if (typeof items === 'string' && (code === 0 || code === 1 || code === 4 || code === 6)) {
    return items;
  }
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
      for (const id of typeof items === 'string' ? [] : items) {
        if (id.length > 255) return 'an alpn id is longer than 255 octets';
        out.push(id.length, ...id);
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
        const octets = new Uint8Array(4);
        if (!readIPv4(a, octets, 0)) return `"${a}" is not an IPv4 address`;
        out.push(...octets);
      }
      return out.length === 0 ? 'ipv4hint needs addresses' : out;
    }
    case 6: {
      const out: number[] = [];
      for (const a of list()) {
        const bytes = new Uint8Array(16);
        if (readIPv6(a, bytes, 0) === undefined) return `"${a}" is not an IPv6 address`;
        out.push(...bytes);
      }
      return out.length === 0 ? 'ipv6hint needs addresses' : out;
    }
    case 5: {
      if (value === undefined || !/^[A-Za-z0-9+/]*={0,2}$/.test(value)) return 'bad ech value';
      return [...Buffer.from(value, 'base64')];
    }
    case 7: {
      // RFC 9461 section 5: a relative URI template with the "dns" variable
      const octets = value === undefined ? undefined : unescapeOctets(value);
      const text = octets === undefined ? '' : Buffer.from(octets).toString('utf8');
      if (
        octets === undefined ||
        !text.startsWith('/') ||
        !/\{[?&]?([^}]*,)?dns(,[^}]*)?\}/.test(text)
      ) {
        return 'dohpath needs a URI template starting with "/" with the "dns" variable';
      }
      return octets;
    }
    case 8:
      return value === undefined ? [] : 'ohttp takes no value';
    default:
      return value === undefined ? [] : (unescapeOctets(value) ?? 'bad escape');
  }
}

const KEY_NAMES = new Map(
  Object.entries(KEYS)
    .filter(([, code]) => code <= PRINTED_BY_NAME)
    .map(([name, code]) => [code, name]),
);

function keyName(code: number): string {
  return KEY_NAMES.get(code) ?? `key${code}`;
}

/** The SvcParams of wire form in presentation; undefined when they are not well formed. */
export function decodeSvcParams(wire: Uint8Array): string | undefined {
  const texts: string[] = [];
  let last = -1;
  for (let at = 0; at < wire.length;) {
    if (at + 4 > wire.length) return undefined;
    const code = (wire[at] << 8) | wire[at + 1];
    const length = (wire[at + 2] << 8) | wire[at + 3];
    const value = wire.subarray(at + 4, at + 4 + length);
    // RFC 9460 section 2.2: keys in strictly increasing order
    if (code <= last || value.length !== length) return undefined;
    last = code;
    const text = valueText(code, value);
    if (text === undefined) return undefined;
    texts.push(text === '' ? keyName(code) : `${keyName(code)}=${text}`);
    at += 4 + length;
  }
  return texts.join(' ');
}

/** A value's text ('' for none), or undefined when it is not well formed for its key. */
function valueText(code: number, value: Uint8Array): string | undefined {
  switch (code) {
    case 0: {
      if (value.length === 0 || value.length % 2 !== 0) return undefined;
      const keys: string[] = [];
      for (let i = 0; i < value.length; i += 2) keys.push(keyName((value[i] << 8) | value[i + 1]));
      return keys.join(',');
    }
    case 1: {
      const ids: string[] = [];
      for (let i = 0; i < value.length; i += 1 + value[i]) {
        const id = value.subarray(i + 1, i + 1 + value[i]);
        if (id.length === 0 || id.length !== value[i]) return undefined;
        ids.push(alpnIdText(id));
      }
      return ids.length === 0 ? undefined : `"${ids.join(',')}"`;
    }
    case 2:
      return value.length === 0 ? '' : undefined;
    case 3:
      return value.length === 2 ? String((value[0] << 8) | value[1]) : undefined;
    case 4: {
      if (value.length === 0 || value.length % 4 !== 0) return undefined;
      const out: string[] = [];
      for (let i = 0; i < value.length; i += 4) out.push(value.subarray(i, i + 4).join('.'));
      return out.join(',');
    }
    case 5:
      return Buffer.from(value).toString('base64');
    case 6: {
      if (value.length === 0 || value.length % 16 !== 0) return undefined;
      const out: string[] = [];
      for (let i = 0; i < value.length; i += 16) {
        out.push(ipv6Text(value.subarray(i, i + 16)));
      }
      return out.join(',');
    }
    default:
      return value.length === 0 ? '' : `"${escapedText(value)}"`;
  }
}
