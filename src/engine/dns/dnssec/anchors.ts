// Trust anchors: the root's, as IANA publishes them (https://data.iana.org/root-anchors/
// root-anchors.xml), or the DS/DNSKEY lines of the file HOSTLENS_TRUST_ANCHORS names, for a
// private root or a test hierarchy (it replaces the root's, it does not add to them).
import { readFileSync } from 'node:fs';
import type { DnskeyData } from '../keys';
import { canonicalName, isAtOrBelow, labelCount } from './names';

export interface DsData {
  keyTag: number;
  algorithm: number;
  digestType: number;
  digest: Buffer;
}

export interface TrustAnchor {
  zone: string;
  ds: DsData[];
  dnskey: DnskeyData[];
}

/** IANA's root key digests, with the date each became valid (none has been withdrawn yet). */
export const ROOT_ANCHORS: ReadonlyArray<DsData & { name: string; validFrom: string }> = [
  {
    name: 'KSK-2017',
    validFrom: '2017-02-02T00:00:00Z',
    keyTag: 20326,
    algorithm: 8,
    digestType: 2,
    digest: Buffer.from('E06D44B80B8F1D39A95C0B0D7C65D08458E880409BBC683457104237C7F8EC8D', 'hex'),
  },
  {
    name: 'KSK-2024',
    validFrom: '2024-07-18T00:00:00Z',
    keyTag: 38696,
    algorithm: 8,
    digestType: 2,
    digest: Buffer.from('683D2D0ACB8C9B712A1948B27F741219298D0A450D612C483AF444A4C0FB2B16', 'hex'),
  },
];

export const TRUST_ANCHORS_ENV = 'HOSTLENS_TRUST_ANCHORS';

export type AnchorSource =
  { ok: true; anchors: TrustAnchor[]; origin: string } | { ok: false; reason: string };

/** The anchors in force: the file HOSTLENS_TRUST_ANCHORS names, else the root's. */
export function loadTrustAnchors(env: NodeJS.ProcessEnv = process.env): AnchorSource {
  const file = env[TRUST_ANCHORS_ENV];
  if (file === undefined || file.trim() === '') {
    return {
      ok: true,
      origin: 'the IANA root anchors',
      anchors: [
        { zone: '.', ds: ROOT_ANCHORS.map(({ name: _n, validFrom: _v, ...ds }) => ds), dnskey: [] },
      ],
    };
  }
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return { ok: false, reason: `${TRUST_ANCHORS_ENV} names a file that cannot be read` };
  }
  const anchors = parseTrustAnchors(text);
  if (anchors.length === 0) {
    return { ok: false, reason: `${TRUST_ANCHORS_ENV} holds no DS or DNSKEY record` };
  }
  return { ok: true, anchors, origin: `the anchors of ${TRUST_ANCHORS_ENV}` };
}

/** DS and DNSKEY records in zone-file form; other lines and malformed records are skipped. */
export function parseTrustAnchors(text: string): TrustAnchor[] {
  const byZone = new Map<string, TrustAnchor>();
  for (const tokens of records(text)) {
    const parsed = parseRecord(tokens);
    if (parsed === undefined) continue;
    const anchor = byZone.get(parsed.zone) ?? { zone: parsed.zone, ds: [], dnskey: [] };
    if ('digest' in parsed.data) anchor.ds.push(parsed.data);
    else anchor.dnskey.push(parsed.data);
    byZone.set(parsed.zone, anchor);
  }
  return [...byZone.values()];
}

/** The anchor nearest above `name` (the deepest anchored zone it is at or below). */
export function anchorFor(anchors: readonly TrustAnchor[], name: string): TrustAnchor | undefined {
  return anchors
    .filter((a) => isAtOrBelow(name, a.zone))
    .sort((a, b) => labelCount(b.zone) - labelCount(a.zone))[0];
}

/** Zone-file records as token lists: comments dropped, parentheses joined. */
function records(text: string): string[][] {
  const out: string[][] = [];
  let current: string[] = [];
  let depth = 0;
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.replace(/;.*$/, '');
    for (const token of line.match(/[()]|[^\s()]+/g) ?? []) {
      if (token === '(') depth++;
      else if (token === ')') depth = Math.max(0, depth - 1);
      else current.push(token);
    }
    if (depth === 0 && current.length > 0) {
      out.push(current);
      current = [];
    }
  }
  if (current.length > 0) out.push(current);
  return out;
}

function parseRecord(tokens: string[]): { zone: string; data: DsData | DnskeyData } | undefined {
  if (tokens[0].startsWith('$')) return undefined;
  const zone = canonicalName(tokens[0]);
  let i = 1;
  while (i < tokens.length && (/^\d+$/.test(tokens[i]) || /^(IN|CH|HS)$/i.test(tokens[i]))) i++;
  const type = tokens[i]?.toUpperCase();
  const rdata = tokens.slice(i + 1);
  const int = (t: string | undefined, max: number) =>
    t !== undefined && /^\d+$/.test(t) && Number(t) <= max ? Number(t) : undefined;
  if (type === 'DS') {
    const [tag, alg, digestType, ...hex] = rdata;
    const joined = hex.join('');
    const keyTag = int(tag, 65535);
    const algorithm = int(alg, 255);
    const dt = int(digestType, 255);
    if (keyTag === undefined || algorithm === undefined || dt === undefined) return undefined;
    if (!/^([0-9a-f]{2})+$/i.test(joined)) return undefined;
    return {
      zone,
      data: { keyTag, algorithm, digestType: dt, digest: Buffer.from(joined, 'hex') },
    };
  }
  if (type === 'DNSKEY') {
    const [flagsText, protocol, alg, ...b64] = rdata;
    const flags = int(flagsText, 65535);
    const algorithm = int(alg, 255);
    const joined = b64.join('');
    if (flags === undefined || algorithm === undefined || protocol !== '3') return undefined;
    if (!/^[A-Za-z0-9+/]+=*$/.test(joined)) return undefined;
    return { zone, data: { flags, algorithm, key: Buffer.from(joined, 'base64') } };
  }
  return undefined;
}
