// One question validated end to end: the answer RRset (or the CNAME chain leading to it, or
// the proof that there is nothing) checked against the keys of the zone the chain of trust
// reaches for each name (RFC 4035 section 5.3 to 5.5, wildcards per section 5.3.4).
import type { Reply, Resolver, ChainLink, SecureZone, Status } from './chain';
import { sigReason, isoTime } from './chain';
import { proveWildcardExpansion } from './denial';
import { canonicalName, suffix } from './names';
import { checkRrset, findRrset, type RRset } from './rrset';

/** additive detail: the signature that made each answer RRset valid */
export interface AnswerSignature {
  name: string;
  type: string;
  signer: string;
  key_tag: number;
  algorithm: number;
  inception: string;
  expiration: string;
}

export interface Verdict {
  status: Status;
  reason: string;
  chain: ChainLink[];
  signatures: AnswerSignature[];
  /** the answers as received, for the records shown beside the verdict (bogus ones too) */
  rcode?: string;
  answers: RRset[];
  /** the question could not be asked at all */
  failed?: Reply & { ok: false };
}

const MAX_ALIASES = 8;

export async function validateQuestion(
  resolver: Resolver,
  qname: string,
  qtype: string,
): Promise<Verdict> {
  const start = canonicalName(qname);
  // The answer and the chain's questions go out together.
  let reply = await Promise.all([resolver.ask(start, qtype), resolver.walk(start)]).then(
    ([r]) => r,
  );
  let name = start;
  const signatures: AnswerSignature[] = [];
  const chain: ChainLink[] = [];
  const answers: RRset[] = [];
  const verdict = (status: Status, reason: string, rcode?: string): Verdict => ({
    status,
    reason,
    chain,
    signatures,
    answers,
    ...(rcode !== undefined ? { rcode } : {}),
  });
  const seen = new Set<string>();
  let worst: { status: Status; reason: string } | undefined;

  for (let hop = 0; hop <= MAX_ALIASES; hop++) {
    if (!reply.ok) {
      if (hop === 0)
        return {
          ...verdict(
            'indeterminate',
            `the ${qtype} question for ${name} failed: ${reply.error.message}`,
          ),
          failed: reply,
        };
      return verdict(
        'indeterminate',
        `the ${qtype} question for ${name} failed: ${reply.error.message}`,
      );
    }
    if (reply.rcode !== 'NOERROR' && reply.rcode !== 'NXDOMAIN') {
      return verdict(
        'indeterminate',
        `the nameserver answered ${reply.rcode} for ${name} ${qtype}`,
        reply.rcode,
      );
    }
    seen.add(name);
    const zone = await resolver.walk(name);
    mergeChain(chain, zone.chain);
    const data = findRrset(reply.answers, name, qtype);
    const alias = qtype === 'CNAME' ? undefined : findRrset(reply.answers, name, 'CNAME');
    const found = data ?? alias;
    if (found !== undefined) answers.push(found);

    if (zone.status !== 'secure') {
      // Below an insecure cut nothing is checked; data still flows through aliases.
      worst = pick(worst, { status: zone.status, reason: zone.reason });
      if (zone.status !== 'insecure') return verdict(zone.status, zone.reason, reply.rcode);
    } else if (found !== undefined) {
      const problem = checkAnswerSet(found, zone, reply, signatures, resolver);
      if (problem?.status === 'bogus') return verdict('bogus', problem.reason, reply.rcode);
      if (problem !== undefined) worst = pick(worst, problem);
    } else {
      const denial = resolver.denial(reply, zone, name, qtype);
      const negative = reply.rcode === 'NXDOMAIN' ? 'does not exist' : `has no ${qtype} record`;
      switch (denial.kind) {
        case 'nxdomain':
        case 'nodata':
          if ((denial.kind === 'nxdomain') !== (reply.rcode === 'NXDOMAIN')) {
            return verdict(
              'bogus',
              `the proof for ${name} contradicts the answer's ${reply.rcode}`,
              reply.rcode,
            );
          }
          return finish(verdict, worst, `${name} ${negative}, proven by ${zone.zone}`, reply.rcode);
        case 'insecure':
          return verdict('insecure', denial.reason, reply.rcode);
        case 'insecure_delegation':
          return verdict('insecure', `${name} lies below an unsigned delegation`, reply.rcode);
        case 'unproven':
          return verdict(
            'bogus',
            `${name} ${negative} but ${zone.zone} does not prove it: ${denial.reason}`,
            reply.rcode,
          );
      }
    }
    if (data !== undefined || alias === undefined) {
      if (data === undefined) {
        // An insecure zone's negative answer: nothing to check.
        return verdict(
          worst?.status ?? 'insecure',
          worst?.reason ?? `${name} is not signed`,
          reply.rcode,
        );
      }
      const where = zone.status === 'secure' ? `signed by ${zone.zone}` : 'unsigned';
      return finish(verdict, worst, `${name} ${qtype} is ${where}`, reply.rcode);
    }
    const target = canonicalName(alias.data[0].value as string);
    if (seen.has(target))
      return verdict('bogus', `the CNAME chain from ${start} loops at ${target}`, reply.rcode);
    name = target;
    // A resolver sends the whole chain; an authoritative server only the part in its zone.
    const inReply =
      findRrset(reply.answers, target, qtype) ?? findRrset(reply.answers, target, 'CNAME');
    if (inReply === undefined)
      reply = await Promise.all([resolver.ask(target, qtype), resolver.walk(target)]).then(
        ([r]) => r,
      );
  }
  return verdict('bogus', `the CNAME chain from ${start} is longer than ${MAX_ALIASES} names`);
}

function finish(
  verdict: (s: Status, r: string, rcode?: string) => Verdict,
  worst: { status: Status; reason: string } | undefined,
  reason: string,
  rcode: string,
): Verdict {
  return worst !== undefined
    ? verdict(worst.status, worst.reason, rcode)
    : verdict('secure', reason, rcode);
}

const RANK: Record<Status, number> = { secure: 0, insecure: 1, indeterminate: 2, bogus: 3 };

export function pick<T extends { status: Status }>(a: T | undefined, b: T): T {
  return a === undefined || RANK[b.status] > RANK[a.status] ? b : a;
}

function mergeChain(into: ChainLink[], links: readonly ChainLink[]): void {
  for (const link of links) if (!into.some((l) => l.zone === link.zone)) into.push(link);
}

/** The RRset's signature by its zone, and for a wildcard answer the proof the name itself is absent. */
function checkAnswerSet(
  set: RRset,
  zone: SecureZone,
  reply: Reply & { ok: true },
  signatures: AnswerSignature[],
  resolver: Resolver,
): { status: 'bogus' | 'insecure'; reason: string } | undefined {
  const check = checkRrset(set, zone.zone, zone.keys, resolver.nowMs());
  if (!check.ok) {
    return {
      status: 'bogus',
      reason: sigReason(`${set.name} ${set.type}`, zone.zone, check, resolver.nowMs()),
    };
  }
  const sig = check.sig!;
  signatures.push({
    name: set.name,
    type: set.type,
    signer: zone.zone,
    key_tag: sig.keyTag,
    algorithm: sig.algorithm,
    inception: isoTime(sig.inception, resolver.nowMs()),
    expiration: isoTime(sig.expiration, resolver.nowMs()),
  });
  if (check.wildcard === undefined) return undefined;
  const encloser = suffix(set.name, sig.labels);
  const { nsecs, nsec3s } = resolver.denialRecords(reply, zone);
  const proof = proveWildcardExpansion(set.name, encloser, nsecs, nsec3s);
  if (proof === 'unproven') {
    return {
      status: 'bogus',
      reason: `${set.name} ${set.type} comes from the wildcard ${check.wildcard} without proof that ${set.name} itself does not exist`,
    };
  }
  if (proof === 'opt_out') {
    return {
      status: 'insecure',
      reason: `${set.name} ${set.type} comes from the wildcard ${check.wildcard}, and only an NSEC3 opt-out span says ${set.name} is not an unsigned delegation`,
    };
  }
  return undefined;
}
