// The chain of trust from an anchor down to the zone that holds a name (RFC 4035 section 5):
// zone cut by zone cut, a DS RRset signed by the parent, a DNSKEY RRset signed by a key that
// one of those DS records names, or a signed proof that the cut has no DS (insecure below).
// Every DS and DNSKEY question of the walk goes out at once; the walk then reads the answers
// top down, so the chain costs one round trip however deep it is.
import { LookupError } from '../../../contract/errors';
import type { TrustAnchor, DsData } from './anchors';
import { dsDigest, isSupportedDigest, keyTag, ZONE_KEY_FLAG, type DnskeyData } from '../keys';
import { algorithmName, isSupportedAlgorithm, keyBits, DEPRECATED_ALGORITHMS } from './crypto';
import { fromBase32Hex } from '../rdata/base32hex';
import { proveDenial, type Denial, type Nsec, type Nsec3 } from './denial';
import type { Exchange, Nameserver } from './exchange';
import { parseMessage, RCODE } from '../wire';
import { canonicalName, fromLabels, labels, namesBelow } from './names';
import {
  absoluteTime,
  checkRrset,
  dnskeysOf,
  dsOf,
  findRrset,
  rrsets,
  type RRset,
  type RrsigData,
  type SigCheck,
} from './rrset';

export type Status = 'secure' | 'insecure' | 'bogus' | 'indeterminate';

export interface ChainLink {
  zone: string;
  ds: Array<{ key_tag: number; algorithm: number; digest_type: number; digest: string }>;
  dnskey: Array<{ key_tag: number; algorithm: number; flags: number; bits: number }>;
  rrsig?: { key_tag: number; algorithm: number; inception: string; expiration: string };
}

export type ZoneState =
  | { status: 'secure'; zone: string; keys: DnskeyData[]; chain: ChainLink[] }
  | { status: Exclude<Status, 'secure'>; reason: string; chain: ChainLink[] };

export type SecureZone = Extract<ZoneState, { status: 'secure' }>;

export type Reply =
  | { ok: true; rcode: string; answers: RRset[]; authority: RRset[] }
  | { ok: false; error: LookupError };

const RCODE_NAMES = Object.fromEntries(Object.entries(RCODE).map(([n, code]) => [code, n]));

/** How many names of one walk are asked ahead at once (names deeper than this wait their turn). */
const PREFETCH_DEPTH = 16;

/** The questions of one look-up, each asked once and kept for its TTL. */
export class Resolver {
  private readonly cache = new Map<string, { reply: Promise<Reply>; expires: number }>();
  private readonly walks = new Map<string, Promise<ZoneState>>();
  /** how many questions went out (for tests and the bench) */
  questions = 0;

  constructor(
    private readonly exchange: Exchange,
    private readonly server: Nameserver,
    private readonly anchors: readonly TrustAnchor[],
    private readonly now: () => number,
    private readonly signal?: AbortSignal,
  ) {}

  ask(name: string, type: string): Promise<Reply> {
    const key = `${canonicalName(name)} ${type}`;
    const cached = this.cache.get(key);
    if (cached !== undefined && this.now() < cached.expires) return cached.reply;
    this.questions++;
    const entry = { reply: this.fetch(name, type), expires: Number.POSITIVE_INFINITY };
    this.cache.set(key, entry);
    void entry.reply.then((r) => {
      entry.expires = r.ok ? this.now() + minTtl(r) * 1000 : this.now();
    });
    return entry.reply;
  }

  private async fetch(name: string, type: string): Promise<Reply> {
    try {
      const message = await this.exchange(canonicalName(name), type, this.server, this.signal);
      const reply = parseMessage(message);
      const rcode = RCODE_NAMES[reply.rcode] ?? `RCODE ${reply.rcode}`;
      // REFUSED, SERVFAIL, NOTIMP...: the server declined to answer, which says nothing of the
      // zone. The common case is an authoritative server asked for the root's keys: it is not
      // a resolver, and the chain cannot be built through it (indeterminate, not bogus).
      if (rcode !== 'NOERROR' && rcode !== 'NXDOMAIN') {
        return {
          ok: false,
          error: new LookupError(
            'upstream_error',
            `the nameserver answered ${rcode} (validation needs a resolver, or a server for every zone of the chain)`,
          ),
        };
      }
      return {
        ok: true,
        rcode,
        answers: rrsets(reply.answers),
        authority: rrsets(reply.authorities),
      };
    } catch (err) {
      if (err instanceof LookupError) return { ok: false, error: err };
      // not a LookupError: a fault of ours, reported as an unusable answer, not thrown
      return {
        ok: false,
        error: new LookupError('upstream_error', `An unusable answer for ${name} ${type}`),
      };
    }
  }

  /** The trust state of the zone holding `name`; memoised, so CNAME hops share the walk. */
  walk(name: string): Promise<ZoneState> {
    const key = canonicalName(name);
    let walk = this.walks.get(key);
    if (walk === undefined) {
      walk = this.walkFrom(key);
      this.walks.set(key, walk);
    }
    return walk;
  }

  private async walkFrom(name: string): Promise<ZoneState> {
    const anchor = nearestAnchor(this.anchors, name);
    if (anchor === undefined) {
      return { status: 'indeterminate', reason: `no trust anchor covers ${name}`, chain: [] };
    }
    const below = namesBelow(name, anchor.zone);
    void this.ask(anchor.zone, 'DNSKEY');
    for (const n of below.slice(0, PREFETCH_DEPTH)) {
      void this.ask(n, 'DS');
      void this.ask(n, 'DNSKEY');
    }
    let state = await this.anchoredKeys(anchor);
    for (const cut of below) {
      if (state.status !== 'secure') return state;
      const step = await this.stepDown(state, cut);
      if (step === 'missing') break;
      if (step !== 'same') state = step;
    }
    return state;
  }

  /** The anchor zone's DNSKEY set, trusted through the anchor's DS or DNSKEY records. */
  private async anchoredKeys(anchor: TrustAnchor): Promise<ZoneState> {
    const trusted = anchor.dnskey.filter((k) => isSupportedAlgorithm(k.algorithm));
    if (anchor.ds.length > 0 || trusted.length === 0) {
      return this.zoneKeys(anchor.zone, anchor.ds, [], 'the trust anchor');
    }
    return this.zoneKeys(anchor.zone, [], [], 'the trust anchor', trusted);
  }

  /**
   * The state one label further down: a secure or insecure cut, `same` (not a cut), or
   * `missing` (the name does not exist, so nothing below it does either).
   */
  private async stepDown(
    parent: SecureZone,
    name: string,
  ): Promise<ZoneState | 'same' | 'missing'> {
    const reply = await this.ask(name, 'DS');
    const chain = parent.chain;
    if (!reply.ok) {
      return {
        status: 'indeterminate',
        reason: `the DS question for ${name} failed: ${reply.error.message}`,
        chain,
      };
    }
    if (reply.rcode !== 'NOERROR' && reply.rcode !== 'NXDOMAIN') {
      return {
        status: 'indeterminate',
        reason: `the DS question for ${name} got ${reply.rcode}`,
        chain,
      };
    }
    const ds = findRrset(reply.answers, name, 'DS');
    if (ds !== undefined) {
      const check = checkRrset(ds, parent.zone, parent.keys, this.now());
      if (!check.ok) {
        return {
          status: 'bogus',
          reason: sigReason(`the DS records of ${name}`, parent.zone, check, this.now()),
          chain,
        };
      }
      return this.zoneKeys(name, dsOf(ds), chain, `the DS records in ${parent.zone}`);
    }
    // A CNAME is never at a zone cut; the name is an alias inside the parent's zone.
    if (findRrset(reply.answers, name, 'CNAME') !== undefined) return 'same';
    const denial = this.denial(reply, parent, name, 'DS');
    switch (denial.kind) {
      case 'nodata':
        return 'same';
      case 'nxdomain':
        return 'missing';
      case 'insecure_delegation':
        return {
          status: 'insecure',
          reason: denial.optOut
            ? `${name} may be an unsigned delegation: ${parent.zone} covers it with an NSEC3 opt-out span`
            : `${name} is delegated from ${parent.zone} without a DS record, so it is unsigned`,
          chain: [...chain, { zone: name, ds: [], dnskey: [] }],
        };
      case 'insecure':
        return { status: 'insecure', reason: denial.reason, chain };
      case 'unproven':
        return {
          status: 'bogus',
          reason: `${name} has no DS record and ${parent.zone} does not prove it: ${denial.reason}`,
          chain,
        };
    }
  }

  nowMs(): number {
    return this.now();
  }

  /** The NSEC/NSEC3 records of an answer's authority section that `zone`'s keys signed. */
  denialRecords(reply: Extract<Reply, { ok: true }>, zone: SecureZone) {
    const failures: string[] = [];
    const nsecs: Nsec[] = [];
    const nsec3s: Nsec3[] = [];
    for (const set of reply.authority) {
      if (set.type !== 'NSEC' && set.type !== 'NSEC3') continue;
      const check = checkRrset(set, zone.zone, zone.keys, this.now());
      if (!check.ok) {
        failures.push(
          sigReason(`the ${set.type} record at ${set.name}`, zone.zone, check, this.now()),
        );
        continue;
      }
      if (set.type === 'NSEC') nsecs.push(...set.data.map((d) => toNsec(set.name, d)));
      else nsec3s.push(...set.data.flatMap((d) => toNsec3(set.name, d)));
    }
    return { nsecs, nsec3s, failures };
  }

  /** What the verified NSEC/NSEC3 records of an answer in `zone` prove about name and type. */
  denial(
    reply: Extract<Reply, { ok: true }>,
    zone: SecureZone,
    name: string,
    type: string,
  ): Denial {
    const { nsecs, nsec3s, failures } = this.denialRecords(reply, zone);
    const result = proveDenial(name, type, reply.rcode === 'NXDOMAIN', nsecs, nsec3s);
    if (result.kind === 'unproven' && failures.length > 0) {
      return { kind: 'unproven', reason: `${result.reason} (${failures.join('; ')})` };
    }
    return result;
  }

  /** A zone's DNSKEY set, trusted when a key that a DS (or a trusted key) names signed it. */
  private async zoneKeys(
    zone: string,
    dsRecords: readonly DsData[],
    chain: ChainLink[],
    via: string,
    trustedKeys?: DnskeyData[],
  ): Promise<ZoneState> {
    const link: ChainLink = { zone, ds: dsRecords.map(dsJson), dnskey: [] };
    const next = [...chain, link];
    const usable = dsRecords.filter(
      (d) => isSupportedAlgorithm(d.algorithm) && isSupportedDigest(d.digestType),
    );
    // RFC 4509 section 3: with a SHA-256 (or stronger) DS present, SHA-1 ones are not trusted.
    const strong = usable.some((d) => d.digestType !== 1);
    const dsToUse = strong ? usable.filter((d) => d.digestType !== 1) : usable;
    if (trustedKeys === undefined && dsToUse.length === 0) {
      const algs = [...new Set(dsRecords.map((d) => algorithmName(d.algorithm)))].join(', ');
      const deprecated = dsRecords.some((d) => DEPRECATED_ALGORITHMS.has(d.algorithm));
      return {
        status: 'insecure',
        reason: `the DS records of ${zone} use only ${deprecated ? 'deprecated or ' : ''}unsupported algorithms or digests (${algs})`,
        chain: next,
      };
    }
    const reply = await this.ask(zone, 'DNSKEY');
    if (!reply.ok) {
      return {
        status: 'indeterminate',
        reason: `the DNSKEY question for ${zone} failed: ${reply.error.message}`,
        chain: next,
      };
    }
    const set = findRrset(reply.answers, zone, 'DNSKEY');
    if (set === undefined) {
      return {
        status: 'bogus',
        reason: `${zone} has DS records in ${via} but answers no DNSKEY records`,
        chain: next,
      };
    }
    const keys = dnskeysOf(set);
    link.dnskey = keys.map((k) => ({
      key_tag: keyTag(k),
      algorithm: k.algorithm,
      flags: k.flags,
      bits: keyBits(k),
    }));
    const entry =
      trustedKeys ??
      keys.filter((k) =>
        dsToUse.some(
          (d) =>
            d.keyTag === keyTag(k) &&
            d.algorithm === k.algorithm &&
            (k.flags & ZONE_KEY_FLAG) !== 0 &&
            dsDigest(zone, k, d.digestType)?.equals(d.digest) === true,
        ),
      );
    if (entry.length === 0) {
      const tags = dsToUse.map((d) => d.keyTag).join(', ');
      return {
        status: 'bogus',
        reason: `no DNSKEY of ${zone} matches ${via} (key tag ${tags})`,
        chain: next,
      };
    }
    const check = checkRrset(set, zone, entry, this.now());
    const sig = check.sig ?? check.failedSig;
    if (sig !== undefined) link.rrsig = sigJson(sig, this.now());
    if (!check.ok) {
      return {
        status: 'bogus',
        reason: sigReason(`the DNSKEY records of ${zone}`, zone, check, this.now()),
        chain: next,
      };
    }
    return { status: 'secure', zone, keys, chain: next };
  }
}

function nearestAnchor(anchors: readonly TrustAnchor[], name: string): TrustAnchor | undefined {
  const n = labels(name);
  let best: TrustAnchor | undefined;
  for (const a of anchors) {
    const z = labels(a.zone);
    const under = z.length <= n.length && z.every((l, i) => n[n.length - z.length + i] === l);
    if (under && (best === undefined || z.length > labels(best.zone).length)) best = a;
  }
  return best;
}

function minTtl(reply: Extract<Reply, { ok: true }>): number {
  const ttls = [...reply.answers, ...reply.authority].map((s) => s.ttl);
  return ttls.length === 0 ? 0 : Math.min(...ttls);
}

/** An NSEC record's fields (by the type table's names: nextDomain, rrtypes). */
function toNsec(owner: string, data: Record<string, unknown>): Nsec {
  return {
    owner,
    next: canonicalName(data.nextDomain as string),
    types: new Set(data.rrtypes as string[]),
  };
}

/** An NSEC3 record's fields; none when its owner's first label is not a base32hex hash. */
function toNsec3(owner: string, data: Record<string, unknown>): Nsec3[] {
  const [first, ...rest] = labels(owner);
  const hash = first === undefined ? undefined : fromBase32Hex(first);
  if (hash === undefined) return [];
  return [
    {
      zone: fromLabels(rest),
      hash,
      algorithm: data.algorithm as number,
      flags: data.flags as number,
      iterations: data.iterations as number,
      salt: data.salt as Buffer,
      next: data.nextDomain as Buffer,
      types: new Set(data.rrtypes as string[]),
    },
  ];
}

export function dsJson(d: DsData): ChainLink['ds'][number] {
  return {
    key_tag: d.keyTag,
    algorithm: d.algorithm,
    digest_type: d.digestType,
    digest: d.digest.toString('hex').toUpperCase(),
  };
}

export function isoTime(serial: number, nowMs: number): string {
  return new Date(absoluteTime(serial, nowMs) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function sigJson(sig: RrsigData, nowMs: number): NonNullable<ChainLink['rrsig']> {
  return {
    key_tag: sig.keyTag,
    algorithm: sig.algorithm,
    inception: isoTime(sig.inception, nowMs),
    expiration: isoTime(sig.expiration, nowMs),
  };
}

/** Why no RRSIG over a set validated, in words. */
export function sigReason(what: string, signer: string, check: SigCheck, nowMs: number): string {
  const sig = check.failedSig;
  const key = sig !== undefined ? ` (key ${sig.keyTag}, ${algorithmName(sig.algorithm)})` : '';
  switch (check.failure) {
    case 'missing':
      return `${what} carry no RRSIG though ${signer} is signed`;
    case 'expired':
      return `the RRSIG over ${what}${key} expired at ${isoTime(sig!.expiration, nowMs)}`;
    case 'not_yet_valid':
      return `the RRSIG over ${what}${key} is valid only from ${isoTime(sig!.inception, nowMs)}`;
    case 'no_matching_key':
      return `the RRSIG over ${what}${key} names no DNSKEY of ${signer}`;
    case 'unsupported_algorithm':
      return `the RRSIG over ${what}${key} uses an unsupported algorithm`;
    case 'bad_signature':
      return `the RRSIG over ${what}${key} does not verify`;
    default:
      return `no RRSIG by ${signer} over ${what} is well formed`;
  }
}
