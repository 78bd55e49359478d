// RRsets of a decoded answer and the check of one RRSIG over one RRset (RFC 4035 section 5.3):
// the canonical form and order of RFC 4034 section 6, the validity window in serial-number
// arithmetic (RFC 4034 section 3.1.5), the wildcard rule of the labels field.
import { keyText } from '../names';
import { canonicalRecord } from '../rdata/canonical';
import { rdataValues } from '../rdata/text';
import { specOf, typeCode } from '../rdata/types';
import { CLASS_IN, TYPE_OPT, type WireRecord } from '../wire';
import { keyTag, REVOKE_FLAG, ZONE_KEY_FLAG, type DnskeyData } from '../keys';
import { isSupportedAlgorithm, verifySignature } from './crypto';
import type { DsData } from './anchors';
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
  /** each record's fields by the type table's names (FieldCodec.value) */
  data: Array<Record<string, unknown>>;
  /** each record's data in the canonical form of RFC 4034 section 6.2 */
  rdata: Buffer[];
  /** the records as received, for the contract's JSON */
  records: WireRecord[];
  sigs: RrsigData[];
}

/**
 * Groups a section's records (class IN) into RRsets, each with the RRSIGs that cover it.
 * Throws MalformedMessage when a record's data does not read as its type.
 */
export function rrsets(section: readonly WireRecord[]): RRset[] {
  const sets = new Map<string, RRset>();
  const sigs: Array<{ name: string; sig: RrsigData }> = [];
  for (const record of section) {
    if (record.type === TYPE_OPT || record.class !== CLASS_IN) continue;
    const name = keyText(record.owner, true);
    const canonical = canonicalRecord(record, 'dnssec');
    const spec = specOf(record.type);
    const data =
      spec === undefined
        ? {}
        : rdataValues(record.message, record.rdataOffset, record.rdataLength, spec);
    if (canonical.type === 'RRSIG') {
      sigs.push({ name, sig: rrsigOf(data) });
      continue;
    }
    const key = `${name} ${canonical.type}`;
    let set = sets.get(key);
    if (set === undefined) {
      set = {
        name,
        type: canonical.type,
        ttl: record.ttl,
        data: [],
        rdata: [],
        records: [],
        sigs: [],
      };
      sets.set(key, set);
    }
    set.ttl = Math.min(set.ttl, record.ttl);
    set.data.push(data);
    set.rdata.push(canonical.wire);
    set.records.push(record);
  }
  for (const { name, sig } of sigs) {
    const set = sets.get(`${name} ${sig.typeCovered}`);
    if (set !== undefined) set.sigs.push(sig);
  }
  return [...sets.values()];
}

/**
 * A record's fields as `T`, whose keys are the type table's field names for its type
 * (types.ts names the DNSSEC types' fields as the validator's shapes do).
 */
function typed<T>(values: Record<string, unknown>, keys: ReadonlyArray<keyof T & string>): T {
  const out: Partial<T> = {};
  for (const key of keys) out[key] = values[key] as T[typeof key];
  return out as T;
}

const RRSIG_FIELDS = [
  'typeCovered',
  'algorithm',
  'labels',
  'originalTTL',
  'expiration',
  'inception',
  'keyTag',
  'signersName',
  'signature',
] as const;

function rrsigOf(values: Record<string, unknown>): RrsigData {
  return typed<RrsigData>(values, RRSIG_FIELDS);
}

/** The DS records of a DS RRset. */
export function dsOf(set: RRset): DsData[] {
  return set.data.map((d) => typed<DsData>(d, ['keyTag', 'algorithm', 'digestType', 'digest']));
}

/** The keys of a DNSKEY RRset. */
export function dnskeysOf(set: RRset): DnskeyData[] {
  return set.data.map((d) => typed<DnskeyData>(d, ['flags', 'algorithm', 'key']));
}

export function findRrset(sets: readonly RRset[], name: string, type: string): RRset | undefined {
  const wanted = canonicalName(name);
  return sets.find((s) => s.name === wanted && s.type === type);
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
  const covered = typeCode(sig.typeCovered);
  if (covered === undefined) return undefined;
  const signer = nameToWire(canonicalName(sig.signersName));
  const fields = Buffer.alloc(18);
  fields.writeUInt16BE(covered, 0);
  fields[2] = sig.algorithm & 0xff;
  fields[3] = sig.labels & 0xff;
  fields.writeUInt32BE(sig.originalTTL >>> 0, 4);
  fields.writeUInt32BE(sig.expiration >>> 0, 8);
  fields.writeUInt32BE(sig.inception >>> 0, 12);
  fields.writeUInt16BE(sig.keyTag & 0xffff, 16);
  const rdatas = [...set.rdata].sort((a, b) => Buffer.compare(a, b));
  const unique = rdatas.filter((r, i) => i === 0 || !r.equals(rdatas[i - 1]));
  const ownerWire = nameToWire(owner);
  const fixed = Buffer.alloc(10);
  fixed.writeUInt16BE(covered, 0);
  fixed.writeUInt16BE(CLASS_IN, 2);
  fixed.writeUInt32BE(sig.originalTTL >>> 0, 4);
  const parts: Buffer[] = [fields, signer];
  for (const rdata of unique) {
    const head = Buffer.from(fixed);
    head.writeUInt16BE(rdata.length, 8);
    parts.push(ownerWire, head, rdata);
  }
  return Buffer.concat(parts);
}
