// RRsets of a decoded answer and the check of one RRSIG over one RRset (RFC 4035 section 5.3):
// the canonical form and order of RFC 4034 section 6, the validity window in serial-number
// arithmetic (RFC 4034 section 3.1.5), the wildcard rule of the labels field.
import * as packet from 'dns-packet';
import {
  REVOKE_FLAG,
  ZONE_KEY_FLAG,
  isSupportedAlgorithm,
  keyTag,
  verifySignature,
  type DnskeyData,
} from './crypto';
import { canonicalName, fromLabels, labelCount, labels, isAtOrBelow, nameToWire } from './names';

export interface RrsigData {
  typeCovered: string;
  algorithm: number;
  labels: number;
  originalTTL: number;
  expiration: number;
  inception: number;
  keyTag: number;
  signersName: string;
  signature: Buffer;
}

export interface RRset {
  /** canonical owner name */
  name: string;
  type: string;
  ttl: number;
  /** each record's data as dns-packet decoded it */
  data: unknown[];
  sigs: RrsigData[];
}

/** Groups a section's records (class IN) into RRsets, each with the RRSIGs that cover it. */
export function rrsets(section: readonly packet.Answer[] | undefined): RRset[] {
  const sets = new Map<string, RRset>();
  const sigs: Array<{ name: string; sig: RrsigData }> = [];
  for (const rr of section ?? []) {
    if (rr.type === 'OPT') continue;
    const record = rr as {
      name: string;
      type: string;
      ttl?: number;
      class?: string;
      data: unknown;
    };
    if (record.class !== undefined && record.class !== 'IN') continue;
    const name = canonicalName(record.name);
    if (record.type === 'RRSIG') {
      sigs.push({ name, sig: record.data as RrsigData });
      continue;
    }
    const key = `${name} ${record.type}`;
    const set = sets.get(key) ?? {
      name,
      type: record.type,
      ttl: record.ttl ?? 0,
      data: [],
      sigs: [],
    };
    set.ttl = Math.min(set.ttl, record.ttl ?? 0);
    set.data.push(record.data);
    sets.set(key, set);
  }
  for (const { name, sig } of sigs) {
    const set = sets.get(`${name} ${sig.typeCovered}`);
    if (set !== undefined) set.sigs.push(sig);
  }
  return [...sets.values()];
}

export function findRrset(sets: readonly RRset[], name: string, type: string): RRset | undefined {
  const wanted = canonicalName(name);
  return sets.find((s) => s.name === wanted && s.type === type);
}

const lowerAscii = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

/** RFC 4034 section 6.2 item 3 (as RFC 6840 section 5.1 narrowed it: NSEC is left alone). */
function lowerNames(type: string, data: unknown): unknown {
  const d = data as Record<string, unknown>;
  switch (type) {
    case 'NS':
    case 'CNAME':
    case 'PTR':
    case 'DNAME':
      return lowerAscii(String(data));
    case 'MX':
      return { ...d, exchange: lowerAscii(String(d.exchange)) };
    case 'SOA':
      return { ...d, mname: lowerAscii(String(d.mname)), rname: lowerAscii(String(d.rname)) };
    case 'SRV':
      return { ...d, target: lowerAscii(String(d.target)) };
    case 'RP':
      return { ...d, mbox: lowerAscii(String(d.mbox)), txt: lowerAscii(String(d.txt)) };
    case 'NAPTR':
      return { ...d, replacement: lowerAscii(String(d.replacement)) };
    case 'RRSIG':
      return { ...d, signersName: lowerAscii(String(d.signersName)) };
    default:
      return data;
  }
}

/** The record's RDATA in canonical form, or undefined when it cannot be encoded back. */
export function canonicalRdata(type: string, data: unknown): Buffer | undefined {
  try {
    // dns-packet's per-type encoders are public but missing from its typings.
    const codec = packet as unknown as { record(t: string): { encode(d: unknown): Buffer } };
    const framed = codec.record(type).encode(lowerNames(type, data));
    return Buffer.from(framed.subarray(2));
  } catch {
    return undefined;
  }
}

/** Seconds since the epoch, mapped into the 32-bit serial space of RRSIG times. */
export function serialNow(nowMs: number): number {
  return Math.floor(nowMs / 1000) >>> 0;
}

/** The absolute time (epoch seconds) of a 32-bit RRSIG time, the one nearest to now. */
export function absoluteTime(serial: number, nowMs: number): number {
  const now = Math.floor(nowMs / 1000);
  const delta = ((serial - (now >>> 0)) << 0) | 0; // signed 32-bit difference
  return now + delta;
}

export type SigFailure =
  | 'missing'
  | 'expired'
  | 'not_yet_valid'
  | 'no_matching_key'
  | 'unsupported_algorithm'
  | 'bad_signature'
  | 'malformed';

export interface SigCheck {
  ok: boolean;
  /** the RRSIG that validated, when one did */
  sig?: RrsigData;
  /** the key that made it, when one did */
  key?: DnskeyData;
  /** why no RRSIG validated (the most telling failure among them) */
  failure?: SigFailure;
  /** the RRSIG a failure refers to */
  failedSig?: RrsigData;
  /** the owner name the signature covers when it was made for a wildcard (`*.example.`) */
  wildcard?: string;
}

const FAILURE_RANK: Record<SigFailure, number> = {
  missing: -1,
  malformed: 0,
  unsupported_algorithm: 1,
  no_matching_key: 2,
  bad_signature: 3,
  not_yet_valid: 4,
  expired: 5,
};

/**
 * Whether any RRSIG over `set` made by `signer`'s `keys` is valid now. The keys must be the
 * zone's DNSKEYs (already trusted, or the DNSKEY set itself when checking its self-signature).
 */
export function checkRrset(
  set: RRset,
  signer: string,
  keys: readonly DnskeyData[],
  nowMs: number,
): SigCheck {
  let worst: { failure: SigFailure; sig?: RrsigData } | undefined;
  const note = (failure: SigFailure, sig: RrsigData) => {
    if (worst === undefined || FAILURE_RANK[failure] > FAILURE_RANK[worst.failure]) {
      worst = { failure, sig };
    }
  };
  const zone = canonicalName(signer);
  for (const sig of set.sigs) {
    if (!wellFormed(sig) || canonicalName(sig.signersName) !== zone) {
      note('malformed', sig);
      continue;
    }
    if (!isAtOrBelow(set.name, zone) || sig.labels > labelCount(set.name)) {
      note('malformed', sig);
      continue;
    }
    const now = serialNow(nowMs);
    if (((now - sig.inception) | 0) < 0) {
      note('not_yet_valid', sig);
      continue;
    }
    if (((sig.expiration - now) | 0) < 0) {
      note('expired', sig);
      continue;
    }
    if (!isSupportedAlgorithm(sig.algorithm)) {
      note('unsupported_algorithm', sig);
      continue;
    }
    const candidates = keys.filter(
      (k) =>
        k.algorithm === sig.algorithm &&
        (k.flags & ZONE_KEY_FLAG) !== 0 &&
        (k.flags & REVOKE_FLAG) === 0 &&
        keyTag(k) === sig.keyTag,
    );
    if (candidates.length === 0) {
      note('no_matching_key', sig);
      continue;
    }
    const owner = signedOwner(set.name, sig.labels);
    const data = signedData(set, sig, owner);
    if (data === undefined) {
      note('malformed', sig);
      continue;
    }
    const key = candidates.find((k) => verifySignature(k, data, sig.signature));
    if (key === undefined) {
      note('bad_signature', sig);
      continue;
    }
    const result: SigCheck = { ok: true, sig, key };
    if (owner !== set.name) result.wildcard = owner;
    return result;
  }
  return worst === undefined
    ? { ok: false, failure: 'missing' }
    : { ok: false, failure: worst.failure, failedSig: worst.sig };
}

function wellFormed(sig: RrsigData): boolean {
  return (
    sig !== null &&
    typeof sig === 'object' &&
    typeof sig.signersName === 'string' &&
    Buffer.isBuffer(sig.signature) &&
    Number.isInteger(sig.labels) &&
    Number.isInteger(sig.keyTag)
  );
}

/** The owner the signer signed: the name itself, or `*.` + its rightmost `labels` labels. */
function signedOwner(name: string, sigLabels: number): string {
  const parts = labels(name);
  if (parts[0] === '*' && sigLabels === parts.length - 1) return name;
  if (sigLabels >= parts.length) return name;
  return fromLabels(['*', ...parts.slice(parts.length - sigLabels)]);
}

/** RFC 4034 section 3.1.8.1: RRSIG RDATA without the signature, then the sorted RRs. */
function signedData(set: RRset, sig: RrsigData, owner: string): Buffer | undefined {
  const sigRdata = canonicalRdata('RRSIG', { ...sig, signature: Buffer.alloc(0) });
  if (sigRdata === undefined) return undefined;
  const rdatas: Buffer[] = [];
  for (const d of set.data) {
    const r = canonicalRdata(set.type, d);
    if (r === undefined) return undefined;
    rdatas.push(r);
  }
  rdatas.sort((a, b) => Buffer.compare(a, b));
  const unique = rdatas.filter((r, i) => i === 0 || !r.equals(rdatas[i - 1]));
  const ownerWire = nameToWire(owner);
  const fixed = Buffer.alloc(10);
  fixed.writeUInt16BE(typeNumber(set.type), 0);
  fixed.writeUInt16BE(1, 2); // class IN
  fixed.writeUInt32BE(sig.originalTTL >>> 0, 4);
  const parts: Buffer[] = [sigRdata];
  for (const rdata of unique) {
    const head = Buffer.from(fixed);
    head.writeUInt16BE(rdata.length, 8);
    parts.push(ownerWire, head, rdata);
  }
  return Buffer.concat(parts);
}

const typeNumbers = new Map<string, number>();

/** dns-packet's number for a type name (its table is not in its typings, its encoder is). */
export function typeNumber(type: string): number {
  let n = typeNumbers.get(type);
  if (n === undefined) {
    const probe = packet.encode({
      type: 'query',
      id: 0,
      questions: [{ name: '.', type: type as packet.RecordType }],
    });
    n = probe.readUInt16BE(probe.length - 4);
    typeNumbers.set(type, n);
  }
  return n;
}
