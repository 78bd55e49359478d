// GET /sender_policy_ranges (docs/contract.md): the SPF policy of a host and every policy it
// reaches through include: and redirect=, resolved level by level with each level's questions
// asked at once, inside bounds on depth, total queries and time. What a mail receiver would
// trip over (RFC 7208 limits, loops, syntax) is reported as problems, never thrown.
import ipaddr from 'ipaddr.js';
import { LookupError } from '../../contract/errors';
import { normalizeHost } from '../names';
import type { IpRange, RecordType, SpfNode, SpfProblem, SpfRoot } from '../../contract/shapes';
import type { SenderPolicyParams } from '../../contract/services';
import {
  ask,
  failureText,
  fanOutSignal,
  isVoidLookup,
  resolveLookup,
  type Answer,
  type DnsLookup,
  type MailDnsOptions,
} from '../dns/lookup';
import { LOOKUP_TERMS, isSpfRecord, parseSpf, type Mechanism, type ParsedSpf } from './spf-parse';
import { SPF_MAX_LOOKUPS, SPF_MAX_VOID_LOOKUPS } from '../../contract/limits';

export interface SpfTreeLimits {
  /** include/redirect levels below the root that are resolved */
  maxDepth: number;
  /** DNS queries in all */
  maxQueries: number;
  /** wall time for the whole tree, in milliseconds */
  timeoutMs: number;
}

export const DEFAULT_SPF_LIMITS: SpfTreeLimits = {
  maxDepth: 10,
  maxQueries: 100,
  timeoutMs: 15000,
};

export interface SenderPolicyOptions extends MailDnsOptions {
  limits?: Partial<SpfTreeLimits>;
}

/** RFC 7208 section 4.6.4 limits, reported against the whole tree. */
/** RFC 7208 section 4.6.4: an mx term asks for the addresses of at most 10 targets. */
const MAX_MX_TARGETS = 10;

interface Pending {
  node: SpfNode;
  parsed: ParsedSpf;
  /** this node's domain and its ancestors', for loop detection */
  path: string[];
  depth: number;
}

interface Reference {
  from: Pending;
  via: 'include' | 'redirect';
  term: string;
  target: string;
}

/**
 * Problems that make check_host() answer permerror, as spf-check does: several records (RFC
 * 7208 section 4.5), a syntax error (4.6), the look-up, void and MX limits (4.6.4), an include
 * or redirect target without a policy (5.2, 6.1) and loops, which end at the look-up limit.
 * The rest (ptr, +all, a cut-off walk...) are warnings: the policy still gives a result.
 */
const PERMERROR_CODES = new Set([
  'several_records',
  'syntax_error',
  'too_many_lookups',
  'too_many_void_lookups',
  'too_many_mx',
  'missing_include_target',
  'missing_redirect_target',
  'include_loop',
  'redirect_loop',
]);

class Walk {
  queries = 0;
  voids = 0;
  lookups = 0;
  problems: SpfProblem[] = [];
  timedOut = false;
  private readonly txt = new Map<string, Promise<Answer>>();

  constructor(
    private readonly lookup: DnsLookup,
    private readonly limits: SpfTreeLimits,
    private readonly user: AbortSignal | undefined,
    private readonly signal: AbortSignal,
  ) {}

  problem(code: string, domain: string, message: string, term?: string): void {
    const severity = PERMERROR_CODES.has(code) ? 'error' : 'warning';
    this.problems.push({
      code,
      domain,
      ...(term !== undefined ? { term } : {}),
      message,
      severity,
    });
  }

  /** One counted question; the same TXT name is asked once per tree. */
  ask(name: string, type: RecordType): Promise<Answer> {
    const key = name.toLowerCase();
    const cached = type === 'TXT' ? this.txt.get(key) : undefined;
    if (cached) return cached;
    const answer = this.askUncached(name, type);
    if (type === 'TXT') this.txt.set(key, answer);
    return answer;
  }

  private async askUncached(name: string, type: RecordType): Promise<Answer> {
    if (this.queries >= this.limits.maxQueries) return { kind: 'error', code: 'query_limit' };
    this.queries += 1;
    try {
      return await ask(this.lookup, name, type, this.signal);
    } catch (err) {
      if (this.user?.aborted) throw err;
      // A nameserver the server mode may not query (issue 12) is the request's fault: a 403.
      if (err instanceof LookupError && err.code === 'blocked_target') throw err;
      this.timedOut = true;
      return { kind: 'error', code: 'time_limit' };
    }
  }
}

export async function senderPolicyRanges(
  params: SenderPolicyParams,
  options: SenderPolicyOptions & { signal?: AbortSignal } = {},
): Promise<SpfRoot> {
  const host = normalizeHost(params.host);
  const limits = { ...DEFAULT_SPF_LIMITS, ...options.limits };
  const timer = AbortSignal.timeout(limits.timeoutMs);
  const signal = fanOutSignal(options.signal, timer)!;
  const walk = new Walk(resolveLookup(params.server, options), limits, options.signal, signal);

  const answer = await walk.ask(host, 'TXT');
  if (answer.kind === 'error') {
    throw new LookupError(
      answer.code === 'upstream_timeout' || answer.code === 'time_limit'
        ? 'upstream_timeout'
        : 'upstream_error',
      `The TXT look-up of ${host} failed: ${failureText(answer)}`,
    );
  }
  const policies = answer.kind === 'records' ? spfRecords(answer) : [];
  if (policies.length === 0) throw new LookupError('not_found', `${host} has no SPF record`);

  const rootNode: SpfNode = { domain: host, policy: '', ips: [], includes: [] };
  let level = [examine(walk, rootNode, policies, [host], 0)];
  while (level.length > 0 && !walk.timedOut) level = await nextLevel(walk, level, limits);
  if (walk.timedOut) {
    walk.problem('time_limit', host, `The tree was cut off after ${limits.timeoutMs} ms`);
  }
  if (walk.lookups > SPF_MAX_LOOKUPS) {
    walk.problem(
      'too_many_lookups',
      host,
      `${walk.lookups} DNS-querying terms; receivers give permerror above ${SPF_MAX_LOOKUPS}`,
    );
  }
  if (walk.voids > SPF_MAX_VOID_LOOKUPS) {
    walk.problem(
      'too_many_void_lookups',
      host,
      `${walk.voids} look-ups found nothing; receivers give permerror above ${SPF_MAX_VOID_LOOKUPS}`,
    );
  }
  return {
    query_count: walk.queries,
    policy: rootNode.policy,
    ips: rootNode.ips,
    includes: rootNode.includes,
    lookup_count: walk.lookups,
    void_lookup_count: walk.voids,
    problems: walk.problems,
  };
}

function spfRecords(answer: Extract<Answer, { kind: 'records' }>): string[] {
  return answer.records.map((r) => r.value ?? '').filter(isSpfRecord);
}

/** Fills a node from its policy text and notes the problems visible in the text alone. */
function examine(
  walk: Walk,
  node: SpfNode,
  policies: string[],
  path: string[],
  depth: number,
): Pending {
  const domain = node.domain;
  if (policies.length > 1) {
    walk.problem(
      'several_records',
      domain,
      `${policies.length} SPF records; receivers give permerror`,
    );
  }
  node.policy = policies[0] ?? '';
  const parsed = parseSpf(node.policy);
  if (node.policy === '') return { node, parsed: { ...parsed, errors: [] }, path, depth };
  for (const e of parsed.errors) walk.problem('syntax_error', domain, e.message, e.term);
  const hasAll = parsed.mechanisms.some((m) => m.name === 'all');
  for (const term of parsed.terms) {
    const name = term.name;
    if (LOOKUP_TERMS.has(name) && !(name === 'redirect' && hasAll)) walk.lookups += 1;
    if (term.kind === 'modifier') continue;
    if (name === 'ptr') {
      walk.problem('deprecated_ptr', domain, 'RFC 7208 says not to use "ptr"', term.text);
    }
    if (name === 'all' && term.qualifier === '+') {
      walk.problem('pass_all', domain, '"+all" lets every host on the internet pass', term.text);
    }
    if ((name === 'ip4' || name === 'ip6') && term.address !== undefined) {
      node.ips.push(toRange(term.address, name === 'ip4' ? term.cidr4 : term.cidr6));
    }
  }
  if (hasAll && parsed.redirect !== undefined) {
    walk.problem(
      'redirect_with_all',
      domain,
      '"redirect" is ignored when the policy has "all"',
      `redirect=${parsed.redirect}`,
    );
  }
  return { node, parsed, path, depth };
}

/** ip4:/ip6: as a CIDR block of the network address. */
function toRange(address: string, prefix: number | undefined): IpRange {
  const ip = ipaddr.parse(address);
  const bits = prefix ?? (ip.kind() === 'ipv4' ? 32 : 128);
  const net =
    ip.kind() === 'ipv4'
      ? ipaddr.IPv4.networkAddressFromCIDR(`${address}/${bits}`)
      : ipaddr.IPv6.networkAddressFromCIDR(`${address}/${bits}`);
  return { version: ip.kind() === 'ipv4' ? 4 : 6, cidr_block: `${net.toString()}/${bits}` };
}

function references(walk: Walk, item: Pending): Reference[] {
  const refs: Reference[] = [];
  const domain = item.node.domain;
  const add = (via: Reference['via'], term: string, spec: string) => {
    if (spec.includes('%')) {
      walk.problem(
        'macro_target',
        domain,
        'The target depends on the sender and is not followed',
        term,
      );
      return;
    }
    const target = spec.replace(/\.$/, '').toLowerCase();
    if (item.path.includes(target)) {
      walk.problem(`${via}_loop`, domain, `${target} leads back to itself`, term);
      return;
    }
    refs.push({ from: item, via, term, target });
  };
  for (const m of item.parsed.mechanisms) {
    if (m.name === 'include' && m.domainSpec !== undefined) add('include', m.text, m.domainSpec);
  }
  const hasAll = item.parsed.mechanisms.some((m) => m.name === 'all');
  if (item.parsed.redirect !== undefined && !hasAll) {
    add('redirect', `redirect=${item.parsed.redirect}`, item.parsed.redirect);
  }
  return refs;
}

/**
 * The void look-ups of a level's a, mx and exists terms, asked alongside its TXT questions.
 * As in check_host, every question that finds nothing counts (RFC 7208 section 4.6.4, per DNS
 * query as pyspf and Mail::SPF count): an a term's A question, an exists term's, an mx term's
 * MX question and the address question of each of its targets. The address family is IPv4's,
 * the usual client; a ptr term and a macro target depend on the client and are not asked.
 */
async function voidChecks(walk: Walk, item: Pending): Promise<void> {
  const checks = item.parsed.mechanisms
    .filter((m) => ['a', 'mx', 'exists'].includes(m.name) && !(m.domainSpec ?? '').includes('%'))
    .map(async (m) => {
      const name = (m.domainSpec ?? item.node.domain).replace(/\.$/, '');
      const voids = await voidQueriesOf(walk, item, m, name);
      walk.voids += voids;
    });
  await Promise.all(checks);
}

/** How many of a term's questions found nothing. */
async function voidQueriesOf(
  walk: Walk,
  item: Pending,
  mech: Mechanism,
  name: string,
): Promise<number> {
  const answer = await walk.ask(name, mech.name === 'mx' ? 'MX' : 'A');
  if (answer.kind !== 'records') return isVoidLookup(answer) ? 1 : 0;
  if (mech.name !== 'mx') return 0;
  if (answer.records.length > MAX_MX_TARGETS) {
    walk.problem(
      'too_many_mx',
      item.node.domain,
      `${name} has ${answer.records.length} MX records; receivers give permerror above ${MAX_MX_TARGETS}`,
      mech.text,
    );
  }
  const targets = answer.records
    .slice(0, MAX_MX_TARGETS)
    .map((r) => (r.value ?? '').replace(/\.$/, ''))
    .filter((t) => t !== '');
  const found = await Promise.all(targets.map((t) => walk.ask(t, 'A')));
  return found.filter(isVoidLookup).length;
}

async function nextLevel(walk: Walk, level: Pending[], limits: SpfTreeLimits): Promise<Pending[]> {
  const refs: Reference[] = [];
  for (const item of level) {
    for (const ref of references(walk, item)) {
      if (item.depth + 1 > limits.maxDepth) {
        walk.problem(
          'depth_limit',
          item.node.domain,
          `Not followed: deeper than ${limits.maxDepth} levels`,
          ref.term,
        );
      } else {
        refs.push(ref);
      }
    }
  }
  const [answers] = await Promise.all([
    Promise.all(refs.map((ref) => walk.ask(ref.target, 'TXT'))),
    Promise.all(level.map((item) => voidChecks(walk, item))),
  ]);
  const next: Pending[] = [];
  refs.forEach((ref, i) => {
    const answer = answers[i];
    const parent = ref.from;
    const child: SpfNode = { domain: ref.target, policy: '', ips: [], includes: [], via: ref.via };
    parent.node.includes.push(child);
    if (answer.kind === 'error') {
      if (answer.code === 'query_limit') {
        walk.problem(
          'query_limit',
          parent.node.domain,
          `Not followed: more than ${limits.maxQueries} queries`,
          ref.term,
        );
      } else if (answer.code !== 'time_limit') {
        walk.problem(
          'lookup_failed',
          ref.target,
          `The TXT look-up failed (${answer.code})`,
          ref.term,
        );
      }
      return;
    }
    if (isVoidLookup(answer)) walk.voids += 1;
    const policies = answer.kind === 'records' ? spfRecords(answer) : [];
    if (policies.length === 0) {
      walk.problem(
        `missing_${ref.via}_target`,
        parent.node.domain,
        `${ref.target} has no SPF record; receivers give permerror`,
        ref.term,
      );
      return;
    }
    next.push(examine(walk, child, policies, [...parent.path, ref.target], parent.depth + 1));
  });
  return next;
}
