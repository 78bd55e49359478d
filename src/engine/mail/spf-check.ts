// check_host() of RFC 7208: is this client IP allowed to send mail for this domain? The
// result, the term that decided it, and the explanation of a "fail" (exp=).
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { LookupError, printable, throwIfAborted } from '../../contract/errors';
import { reverseName } from '../names';
import type { DnsRecord, RecordType } from '../../contract/shapes';
import {
  ask,
  failureText,
  fanOutSignal,
  isVoidLookup,
  resolveLookup,
  type DnsLookup,
  type MailDnsOptions,
} from '../dns/lookup';
import { expandDomainSpec, expandMacroString, type MacroContext } from './spf-macro';
import { isSpfRecord, parseSpf, type Mechanism, type Qualifier } from './spf-parse';
import { SPF_MAX_LOOKUPS, SPF_MAX_VOID_LOOKUPS } from '../../contract/limits';

export type SpfResult =
  'pass' | 'fail' | 'softfail' | 'neutral' | 'none' | 'permerror' | 'temperror';

export interface CheckHostParams {
  /** the SMTP client's address */
  ip: string;
  /** the domain whose policy is checked (MAIL FROM domain, or HELO) */
  domain: string;
  /** MAIL FROM address; empty or absent means postmaster@<helo> (or @<domain>) */
  sender?: string;
  /** the HELO/EHLO name; defaults to <domain> */
  helo?: string;
  server?: string;
}

export interface CheckHostOptions extends MailDnsOptions {
  signal?: AbortSignal;
  /** %{r}: the receiving host's name; "unknown" by default */
  receiver?: string;
  /** RFC 7208 section 4.6.4 limits; 10 and 2 by default */
  maxLookups?: number;
  maxVoidLookups?: number;
  /** %{t}: seconds since the epoch; the clock by default */
  now?: number;
}

export interface CheckHostResult {
  result: SpfResult;
  /** the term that decided: the matching mechanism of the policy asked, or redirect's */
  mechanism?: string;
  /** the expanded exp= text of a "fail" */
  explanation?: string;
  /** DNS-querying terms evaluated (section 4.6.4) */
  lookups: number;
  /**
   * DNS queries of terms that found nothing (no records of the type, or NXDOMAIN), counted one
   * by one as pyspf and Mail::SPF count them, the limit of section 4.6.4 applied to this count
   */
  void_lookups: number;
  /** terms with at least one such query: the count by the section's wording ("terms") */
  void_terms: number;
  /** why the result is permerror or temperror */
  reason?: string;
  /** where the verdict rests on a reading of RFC 7208 that other readings would not share */
  problems?: string[];
}

const QUALIFIER_RESULT: Record<Qualifier, SpfResult> = {
  '+': 'pass',
  '-': 'fail',
  '~': 'softfail',
  '?': 'neutral',
};

const MAX_NAMES = 10;

/** Thrown inside evaluation to end it with permerror or temperror. */
class SpfAbort extends Error {
  constructor(
    readonly result: 'permerror' | 'temperror',
    readonly reason: string,
  ) {
    super(reason);
  }
}

interface Outcome {
  result: SpfResult;
  mechanism?: string;
  explanation?: string;
}

/**
 * One term under evaluation. Section 4.6.4 limits the "terms" for which DNS queries return no
 * answer; pyspf and Mail::SPF, which most receivers run, count every such query instead (an mx
 * term's MX question and each of its targets' address questions, a ptr term's PTR question and
 * each name's address question, a %{p} expansion's). The verdict follows the receivers; a term
 * remembers whether it was void so that the count by the section's wording is known too.
 */
interface Term {
  void: boolean;
}

interface PtrLookup {
  /** the PTR names whose addresses include the client */
  names: string[];
  /** the questions that found nothing: the PTR question, or names' address questions */
  voidQueries: number;
  /** the names whose address question found nothing */
  voidNames: string[];
}

interface State {
  lookup: DnsLookup;
  signal: AbortSignal | undefined;
  ip: ipaddr.IPv4 | ipaddr.IPv6;
  lookups: number;
  voids: number;
  voidTerms: number;
  /** questions answered by a CNAME chain that ends without records (not void: see below) */
  aliasedVoids: number;
  /** the void look-ups pyspf counts for those: one a name of each chain */
  aliasNames: number;
  /** those of a term whose chain ended at a name that does not exist (RCODE 3) */
  aliasedNxdomain: number;
  /** void address questions of a ptr term's PTR names outside its target (Mail::SPF skips them) */
  voidsOutsidePtrTarget: number;
  /** void address questions of MX hosts listed after one that matched (Mail::SPF stops there) */
  voidsAfterMxMatch: number;
  /** records that reached a result with an exp= that names %{p} (Mail::SPF expands it then) */
  expNamingP: number;
  /** a %{p} term has counted the void questions of validating the client's name */
  pCounted: boolean;
  /** the void questions counted for exp='s %{p} (see countExpValidation) */
  expVoids: number;
  /** the void questions of validating the client's name, once known */
  ptrVoids?: number;
  /** those, for a fail's explanation text that names %{p} when no term had counted them */
  explanationPVoids: number;
  maxLookups: number;
  maxVoids: number;
  base: Omit<MacroContext, 'domain' | 'validatedName'>;
  ptr?: Promise<PtrLookup>;
}

export async function checkHost(
  params: CheckHostParams,
  options: CheckHostOptions = {},
): Promise<CheckHostResult> {
  if (typeof params.ip !== 'string' || isIP(params.ip.trim()) === 0) {
    throw new LookupError(
      'invalid_argument',
      `"${printable(String(params.ip))}" is not an IP address`,
    );
  }
  // An IPv4-mapped IPv6 client is an IPv4 client (section 5).
  const ip = ipaddr.process(params.ip.trim());
  const domain = String(params.domain ?? '').trim();
  const helo = params.helo?.trim() || domain;
  const sender = params.sender?.trim() || `postmaster@${helo}`;
  const at = sender.lastIndexOf('@');
  const local = at > 0 ? sender.slice(0, at) : 'postmaster';
  const senderDomain = at >= 0 ? sender.slice(at + 1) : sender;

  const lookup = resolveLookup(params.server, options);
  const state: State = {
    lookup,
    signal: fanOutSignal(options.signal),
    ip,
    lookups: 0,
    voids: 0,
    voidTerms: 0,
    aliasedVoids: 0,
    aliasNames: 0,
    aliasedNxdomain: 0,
    voidsOutsidePtrTarget: 0,
    voidsAfterMxMatch: 0,
    expNamingP: 0,
    pCounted: false,
    expVoids: 0,
    explanationPVoids: 0,
    maxLookups: options.maxLookups ?? SPF_MAX_LOOKUPS,
    maxVoids: options.maxVoidLookups ?? SPF_MAX_VOID_LOOKUPS,
    base: {
      local,
      senderDomain,
      ip,
      helo,
      receiver: options.receiver ?? 'unknown',
      now: options.now ?? Math.floor(Date.now() / 1000),
    },
  };

  const done = (o: Outcome & { reason?: string }): CheckHostResult => {
    const result: CheckHostResult = {
      ...o,
      lookups: state.lookups,
      void_lookups: state.voids,
      void_terms: state.voidTerms,
    };
    const problems = [
      voidReadingsDiffer(state),
      expValidationCounted(state),
      aliasesCountedByPyspf(state, o.result),
      ptrNamesSkippedByMailSpf(state),
      mxHostsAfterMatchSkippedByMailSpf(state),
      expValidatedAgainByMailSpf(state),
      explanationPCountedByPyspf(state),
    ].filter((p): p is string => p !== undefined);
    if (problems.length > 0) result.problems = problems;
    return result;
  };
  // Section 4.3: a malformed or single-label domain gives "none" before any query.
  if (!isCheckableDomain(domain)) {
    return done({ result: 'none', reason: `"${printable(domain)}" is not a domain name` });
  }
  try {
    const record = await fetchPolicy(state, domain);
    if (record === undefined) return done({ result: 'none' });
    const outcome = await evaluate(state, domain, record, true);
    await validateForExp(state);
    return done(outcome);
  } catch (err) {
    if (err instanceof SpfAbort) return done({ result: err.result, reason: err.reason });
    throw err;
  }
}

function isCheckableDomain(domain: string): boolean {
  const name = domain.endsWith('.') ? domain.slice(0, -1) : domain;
  if (name.length === 0 || name.length > 253 || name.startsWith('[')) return false;
  const labels = name.split('.');
  return labels.length >= 2 && labels.every((l) => l.length > 0 && l.length <= 63);
}

/** The one SPF record at a name, undefined when there is none (section 4.5). */
async function fetchPolicy(state: State, domain: string, term?: Term): Promise<string | undefined> {
  const records = await askCounted(state, domain, 'TXT', term);
  if (records === undefined) return undefined;
  const spf = records.map((r) => r.value ?? '').filter(isSpfRecord);
  if (spf.length > 1) throw new SpfAbort('permerror', `${domain} has ${spf.length} SPF records`);
  return spf[0];
}

async function evaluate(
  state: State,
  domain: string,
  record: string,
  useExp: boolean,
): Promise<Outcome> {
  const parsed = parseSpf(record);
  const firstError = parsed.errors[0];
  if (firstError) {
    throw new SpfAbort('permerror', `${domain}: ${firstError.message} in "${firstError.term}"`);
  }
  const reachedResult = async () => {
    if (parsed.exp !== undefined && /%\{p/i.test(parsed.exp)) await countExpValidation(state);
  };
  for (const mech of parsed.mechanisms) {
    throwIfAborted(state.signal);
    if (mech.name !== 'all' && mech.name !== 'ip4' && mech.name !== 'ip6') countLookup(state);
    const term: Term = { void: false };
    if (await matches(state, mech, macroContext(state, domain, term), term)) {
      await reachedResult();
      const result = QUALIFIER_RESULT[mech.qualifier];
      const outcome: Outcome = { result, mechanism: mech.text };
      if (result === 'fail' && useExp && parsed.exp !== undefined) {
        // Section 6.2: exp= is not a term, and its failures never change the result.
        const explanation = await explain(state, parsed.exp, macroContext(state, domain));
        if (explanation !== undefined) outcome.explanation = explanation;
      }
      return outcome;
    }
  }
  await reachedResult();
  if (parsed.redirect !== undefined) {
    countLookup(state);
    const term: Term = { void: false };
    const target = await expandDomainSpec(parsed.redirect, macroContext(state, domain, term));
    const next = isCheckableDomain(target) ? await fetchPolicy(state, target, term) : undefined;
    if (next === undefined) {
      throw new SpfAbort('permerror', `The redirect target ${target} has no SPF record`);
    }
    // Section 6.2: the redirect target's exp= applies, the original's does not.
    return evaluate(state, target, next, useExp);
  }
  return { result: 'neutral' };
}

function countLookup(state: State): void {
  state.lookups += 1;
  if (state.lookups > state.maxLookups) {
    throw new SpfAbort('permerror', `More than ${state.maxLookups} DNS-querying terms`);
  }
}

/**
 * One question of a term: its records; undefined when it found nothing (counted as the term's
 * void look-up); a DNS error ends the evaluation with temperror.
 */
async function askCounted(
  state: State,
  name: string,
  type: RecordType,
  term: Term | undefined,
): Promise<DnsRecord[] | undefined> {
  const answer = await ask(state.lookup, name, type, state.signal);
  if (answer.kind === 'error') {
    throw new SpfAbort(
      'temperror',
      `The ${type} look-up of ${name} failed: ${failureText(answer)}`,
    );
  }
  if (answer.kind === 'void') {
    if (isVoidLookup(answer)) foundNothing(state, term);
    else if (term !== undefined) countAliased(state, answer);
    return undefined;
  }
  return answer.records;
}

/**
 * Counts `queries` questions of a term that found nothing (section 4.6.4, per DNS query as
 * receivers count), and the term itself the first time.
 */
function foundNothing(state: State, term: Term | undefined, queries = 1): void {
  if (term === undefined || queries === 0) return;
  // Questions still in flight when the limit was passed count no more (the check has ended).
  if (state.voids > state.maxVoids) throw new SpfAbort('permerror', voidLimitText(state));
  if (!term.void) {
    term.void = true;
    state.voidTerms += 1;
  }
  state.voids += queries;
  if (state.voids > state.maxVoids) throw new SpfAbort('permerror', voidLimitText(state));
}

function voidLimitText(state: State): string {
  return `More than ${state.maxVoids} void look-ups (DNS queries that found nothing)`;
}

/**
 * The problem line when counting void look-ups per term, as section 4.6.4 words it, would give
 * another verdict than counting them per DNS query, as pyspf and Mail::SPF do.
 */
function voidReadingsDiffer(state: State): string | undefined {
  const termVoids = state.voids - state.expVoids;
  if (termVoids <= state.maxVoids || state.voidTerms > state.maxVoids) return undefined;
  // the questions Mail::SPF does not ask (see the problem lines about them)
  const mailSpfAsks = termVoids - state.voidsAfterMxMatch - state.voidsOutsidePtrTarget;
  const who = mailSpfAsks > state.maxVoids ? 'pyspf or Mail::SPF' : 'pyspf';
  return (
    `${termVoids} DNS queries found nothing in ${state.voidTerms} ` +
    `${state.voidTerms === 1 ? 'term' : 'terms'}: receivers running ${who} count ` +
    `the queries and give permerror; RFC 7208 section 4.6.4 limits the "terms" whose queries ` +
    `return no answer, and by that wording the policy is within the limit of ${state.maxVoids}`
  );
}

/**
 * exp='s %{p}, when a record that names it there reaches a result: pyspf expands exp= as it
 * reads a record and Mail::SPF whenever the record reaches a result, whatever the result, and
 * both count the void look-ups of validating the client's name for it, so the verdict counts
 * them too, once a check, unless a %{p} term already has (pyspf validates once a check;
 * Mail::SPF each time: expValidatedAgainByMailSpf). Not a term: section 4.6.4 does not count
 * exp='s look-ups, said in expValidationCounted.
 */
async function countExpValidation(state: State): Promise<void> {
  state.expNamingP += 1;
  if (state.pCounted) return;
  state.pCounted = true;
  const n = (await ptrLookup(state)).voidQueries;
  if (state.voids > state.maxVoids) throw new SpfAbort('permerror', voidLimitText(state));
  state.expVoids = n;
  state.voids += n;
  if (state.voids > state.maxVoids) throw new SpfAbort('permerror', voidLimitText(state));
}

/** The problem line when exp='s %{p} alone passed the void limit (see countExpValidation). */
function expValidationCounted(state: State): string | undefined {
  if (state.expVoids === 0 || state.voids <= state.maxVoids) return undefined;
  if (state.voids - state.expVoids > state.maxVoids) return undefined;
  return (
    `${state.expVoids} of the void look-ups ${state.expVoids === 1 ? 'was' : 'were'} of ` +
    `validating the client's name for the %{p} of exp=: pyspf and Mail::SPF count them ` +
    `whatever the result and give permerror; RFC 7208 uses exp= only after a fail (section ` +
    `6.2) and does not count its look-ups (section 4.6.4), and by that wording the policy is ` +
    `within the limit of ${state.maxVoids}`
  );
}

/**
 * A question answered by a CNAME chain that ends without records: no void look-up here, as
 * Mail::SPF counts (see aliasesCountedByPyspf). `explanation`: exp='s question, which pyspf
 * asks without counting but whose chain it follows with questions it does count.
 */
function countAliased(
  state: State,
  answer: { aliasNames?: number; nxdomain?: boolean },
  explanation = false,
): void {
  state.aliasedVoids += 1;
  // the asked name and where its CNAME leads, when the answer does not show the chain
  const names = answer.aliasNames ?? 2;
  state.aliasNames += explanation ? names - 1 : names;
  if (answer.nxdomain === true && !explanation) state.aliasedNxdomain += 1;
}

/**
 * The problem line when pyspf's count of CNAME chains would pass the limit; the two libraries
 * disagree here. Mail::SPF counts a question whose answer section is empty, so an answer that
 * holds a CNAME chain ending without records is not void; section 4.6.4 counts answers with an
 * answer count of 0, and the verdict follows both. pyspf follows the chain with questions of
 * its own and counts a void look-up at each name of it (spf.py's dns(), once in the recursion
 * and once on return; a loop stops where a name repeats), exp='s asked name aside. The
 * section's other clause, RCODE 3, makes a chain that ends at a name that does not exist void:
 * said too when that alone would pass the limit. Not said of a permerror: pyspf's verdict is
 * the same, and it may not even ask those questions (it refuses a policy that includes itself
 * before evaluating any term).
 */
function aliasesCountedByPyspf(state: State, result: SpfResult): string | undefined {
  if (result === 'permerror') return undefined;
  if (state.aliasedVoids === 0 || state.voids > state.maxVoids) return undefined;
  if (state.voids + state.aliasNames <= state.maxVoids) return undefined;
  const n = state.aliasedVoids;
  const line =
    `${n} ${n === 1 ? 'question was' : 'questions were'} answered by a CNAME that leads to no ` +
    `records: Mail::SPF does not count such an answer as void (it is not empty), nor does ` +
    `this check, but pyspf counts each name of the chain, and receivers running it give ` +
    `permerror (more than ${state.maxVoids} void look-ups)`;
  const nx = state.aliasedNxdomain;
  if (state.voids + nx <= state.maxVoids) return line;
  return (
    `${line}; RFC 7208 section 4.6.4 words a "Name Error" (RCODE 3) answer as void, and ` +
    `${nx} of these chains ended at a name that does not exist`
  );
}

/**
 * The problem line when the void limit was passed only with the address questions of PTR names
 * outside a ptr term's target. Section 5.5 validates every name returned, and pyspf asks them
 * all; Mail::SPF asks only the names under the target, so it does not count those, and its
 * evaluation goes on to the terms after.
 */
function ptrNamesSkippedByMailSpf(state: State): string | undefined {
  return skippedByMailSpf(
    state,
    state.voidsOutsidePtrTarget,
    `PTR names outside a ptr term's target: RFC 7208 section 5.5 validates every name ` +
      `returned and pyspf counts them too, but Mail::SPF asks only the names under the ` +
      `target, so receivers running it stay within the limit of ${state.maxVoids} there and ` +
      `may reach another verdict`,
  );
}

/** The problem line when only `skipped` void address questions passed the limit. */
function skippedByMailSpf(state: State, skipped: number, whose: string): string | undefined {
  if (state.voids <= state.maxVoids || state.voids - skipped > state.maxVoids) return undefined;
  return (
    `${skipped} of the void look-ups ${skipped === 1 ? 'was' : 'were'} the address ` +
    `${skipped === 1 ? 'question' : 'questions'} of ${whose}`
  );
}

/**
 * The problem line when the void limit was passed only with the address questions of MX hosts
 * listed after one that matched. Section 5.4 looks up the MX hosts' addresses and matches when
 * any matches, without an order; pyspf looks up every host and counts every void one, as this
 * check does, and Mail::SPF stops at the first host that matches.
 */
function mxHostsAfterMatchSkippedByMailSpf(state: State): string | undefined {
  return skippedByMailSpf(
    state,
    state.voidsAfterMxMatch,
    `MX hosts listed after one that matched: pyspf counts them too, but Mail::SPF stops at ` +
      `the first MX host that matches, so receivers running it find the mx mechanism matching ` +
      `there, within the limit of ${state.maxVoids}`,
  );
}

/**
 * Validates the client's name once when a record that reached a result names %{p} in its exp=,
 * for expValidatedAgainByMailSpf; a failure there changes nothing.
 */
async function validateForExp(state: State): Promise<void> {
  if (state.expNamingP === 0) return;
  try {
    state.ptrVoids = (await ptrLookup(state)).voidQueries;
  } catch (err) {
    if (err instanceof LookupError && err.code === 'cancelled') throw err;
  }
}

/**
 * The problem line when Mail::SPF's expansion of exp= would pass the void limit. Section 6.2
 * uses exp= only after a fail, and section 4.6.4 does not count its look-ups; Mail::SPF expands
 * a record's exp= whenever the record reaches a result, whatever the result, and counts the
 * void look-ups of validating the client's name for its %{p} each time.
 */
function expValidatedAgainByMailSpf(state: State): string | undefined {
  if (state.expNamingP === 0 || state.ptrVoids === undefined) return undefined;
  if (state.voids > state.maxVoids) return undefined;
  const extra = state.ptrVoids * state.expNamingP - state.expVoids;
  if (extra <= 0 || state.voids + extra <= state.maxVoids) return undefined;
  return (
    `exp= names the explanation with %{p}: Mail::SPF expands it whatever the result and counts ` +
    `the void look-ups of validating the client's name again (${extra} here), so receivers ` +
    `running it give permerror (more than ${state.maxVoids} void look-ups); RFC 7208 uses ` +
    `exp= only after a fail (section 6.2) and does not count its look-ups (section 4.6.4)`
  );
}

/**
 * The problem line when the %{p} of a fail's explanation text would pass the void limit in
 * pyspf, which expands exp= and its text as it reads a record, whatever the result, and counts
 * the void look-ups of validating the client's name. Mail::SPF gives the fail and counts them
 * when the text is expanded, throwing its void-limit error there rather than giving a result;
 * section 6.2 expands the explanation only after a fail and section 4.6.4 does not count its
 * look-ups, and the verdict follows both.
 */
function explanationPCountedByPyspf(state: State): string | undefined {
  const n = state.explanationPVoids;
  if (n === 0 || state.voids > state.maxVoids || state.voids + n <= state.maxVoids) {
    return undefined;
  }
  return (
    `the explanation names %{p}: pyspf expands it as it reads the record, whatever the ` +
    `result, and counts the void look-ups of validating the client's name (${n} here), so ` +
    `receivers running it give permerror (more than ${state.maxVoids} void look-ups); Mail::SPF ` +
    `gives fail and raises its void-limit error when it expands the text`
  );
}

/** The macro values of a term at <domain>; %{p} marks the term when its look-ups were void. */
function macroContext(state: State, domain: string, term?: Term): MacroContext {
  return {
    ...state.base,
    domain,
    validatedName: () => validatedName(state, domain, term),
  };
}

async function matches(
  state: State,
  mech: Mechanism,
  ctx: MacroContext,
  term: Term,
): Promise<boolean> {
  const target = async () =>
    mech.domainSpec === undefined ? ctx.domain : expandDomainSpec(mech.domainSpec, ctx);
  switch (mech.name) {
    case 'all':
      return true;
    case 'ip4':
    case 'ip6':
      return inRange(state.ip, mech.address!, mech.name === 'ip4' ? mech.cidr4 : mech.cidr6);
    case 'a':
      return (await addresses(state, await target(), term)).some((a) =>
        inPrefix(state.ip, a, mech),
      );
    case 'mx':
      return matchMx(state, await target(), mech, term);
    case 'ptr':
      return matchPtr(state, await target(), term);
    case 'exists': {
      const answer = await ask(state.lookup, await target(), 'A', state.signal);
      if (answer.kind === 'error') throw new SpfAbort('temperror', `exists: ${answer.code}`);
      if (isVoidLookup(answer)) foundNothing(state, term);
      else if (answer.kind === 'void') countAliased(state, answer);
      return answer.kind === 'records';
    }
    case 'include':
      return matchInclude(state, await target(), term);
  }
}

/** The addresses of a name in the client's family; void and error handling per section 5. */
async function addresses(state: State, name: string, term: Term): Promise<string[]> {
  const type: RecordType = state.ip.kind() === 'ipv4' ? 'A' : 'AAAA';
  const records = await askCounted(state, name, type, term);
  return (records ?? []).map((r) => r.value ?? '');
}

async function matchMx(state: State, name: string, mech: Mechanism, term: Term): Promise<boolean> {
  const records = await askCounted(state, name, 'MX', term);
  if (records === undefined) return false;
  if (records.length > MAX_NAMES) {
    throw new SpfAbort('permerror', `${name} has more than ${MAX_NAMES} MX records`);
  }
  // Every target is asked at once and the answers are read in the records' order, so the
  // result does not depend on which answer arrives first. A target whose address look-up is
  // void makes the term void (section 4.6.4) even when another target matches, as pyspf
  // counts; Mail::SPF stops at the first target that matches (mxHostsAfterMatchSkippedByMailSpf).
  const hosts = records.map((r) => stripDot(r.value ?? '')).filter((h) => h !== '');
  const type: RecordType = state.ip.kind() === 'ipv4' ? 'A' : 'AAAA';
  const answers = await Promise.all(hosts.map((h) => ask(state.lookup, h, type, state.signal)));
  let matched = false;
  answers.forEach((answer, i) => {
    if (answer.kind === 'error') {
      throw new SpfAbort(
        'temperror',
        `The ${type} look-up of ${hosts[i]} failed: ${failureText(answer)}`,
      );
    }
    if (answer.kind === 'records') {
      matched ||= answer.records.some((r) => inPrefix(state.ip, r.value ?? '', mech));
    } else if (isVoidLookup(answer)) {
      if (matched) state.voidsAfterMxMatch += 1;
      foundNothing(state, term);
    } else {
      countAliased(state, answer);
    }
  });
  return matched;
}

/**
 * The client's PTR names that resolve back to it (section 5.5), asked once per check. A DNS
 * error on the PTR question means no names; on a name's address question, that name is
 * skipped.
 */
function ptrLookup(state: State): Promise<PtrLookup> {
  state.ptr ??= (async () => {
    const answer = await ask(state.lookup, reverseName(state.ip.toString()), 'PTR', state.signal);
    if (answer.kind !== 'records') {
      return { names: [], voidQueries: isVoidLookup(answer) ? 1 : 0, voidNames: [] };
    }
    // Section 4.6.4: names past the first 10 are ignored.
    const names = answer.records.slice(0, MAX_NAMES).map((r) => stripDot(r.value ?? ''));
    const type: RecordType = state.ip.kind() === 'ipv4' ? 'A' : 'AAAA';
    const forward = await Promise.all(
      names.map((name) => ask(state.lookup, name, type, state.signal)),
    );
    return {
      names: names.filter((_, i) => {
        const fwd = forward[i];
        return fwd.kind === 'records' && fwd.records.some((r) => sameIp(state.ip, r.value ?? ''));
      }),
      voidQueries: forward.filter(isVoidLookup).length,
      voidNames: names.filter((_, i) => isVoidLookup(forward[i])),
    };
  })();
  return state.ptr;
}

/**
 * The validated names, counting the void look-ups behind them for this term (the questions are
 * asked once per check; receivers ask them again for every term that needs them).
 */
async function validatedNames(
  state: State,
  term: Term | undefined,
  target?: string,
): Promise<string[]> {
  const found = await ptrLookup(state);
  if (target !== undefined && term !== undefined) {
    state.voidsOutsidePtrTarget += found.voidNames.filter((n) => !isSubdomainOf(n, target)).length;
  }
  foundNothing(state, term, found.voidQueries);
  return found.names;
}

async function matchPtr(state: State, target: string, term: Term): Promise<boolean> {
  const t = target.toLowerCase();
  const names = await validatedNames(state, term, t);
  return names.some((n) => isSubdomainOf(n, t));
}

/** %{p}: a validated name in <domain> if there is one, then any validated name. */
async function validatedName(state: State, domain: string, term?: Term): Promise<string> {
  const names = await validatedNames(state, term);
  if (term !== undefined) state.pCounted = true;
  const d = domain.toLowerCase();
  return names.find((n) => isSubdomainOf(n, d)) ?? names[0] ?? 'unknown';
}

async function matchInclude(state: State, target: string, term: Term): Promise<boolean> {
  const record = isCheckableDomain(target) ? await fetchPolicy(state, target, term) : undefined;
  if (record === undefined) {
    throw new SpfAbort('permerror', `The include target ${target} has no SPF record`);
  }
  // Section 5.2: an included policy's exp= is never used.
  const inner = await evaluate(state, target, record, false);
  if (inner.result === 'pass') return true;
  if (inner.result === 'temperror' || inner.result === 'permerror') {
    throw new SpfAbort(inner.result, `include:${target} gave ${inner.result}`);
  }
  return false;
}

/** The expanded exp= text, or undefined whenever section 6.2 says to ignore it. */
async function explain(state: State, spec: string, ctx: MacroContext): Promise<string | undefined> {
  try {
    const name = await expandDomainSpec(spec, ctx);
    const answer = await ask(state.lookup, name, 'TXT', state.signal);
    if (answer.kind === 'void' && answer.aliased === true) countAliased(state, answer, true);
    if (answer.kind !== 'records' || answer.records.length !== 1) return undefined;
    const text = answer.records[0].value ?? '';
    if (/%\{p/i.test(text) && !state.pCounted) {
      state.explanationPVoids = (await ptrLookup(state)).voidQueries;
    }
    return await expandMacroString(text, ctx, true);
  } catch (err) {
    if (err instanceof LookupError) throw err;
    return undefined;
  }
}

function stripDot(name: string): string {
  return name.endsWith('.') ? name.slice(0, -1).toLowerCase() : name.toLowerCase();
}

function isSubdomainOf(name: string, target: string): boolean {
  const t = stripDot(target);
  return name === t || name.endsWith(`.${t}`);
}

function sameIp(ip: ipaddr.IPv4 | ipaddr.IPv6, other: string): boolean {
  if (!ipaddr.isValid(other)) return false;
  const o = ipaddr.process(other);
  return o.kind() === ip.kind() && o.toString() === ip.toString();
}

function inRange(
  ip: ipaddr.IPv4 | ipaddr.IPv6,
  network: string,
  prefix: number | undefined,
): boolean {
  if (!ipaddr.isValid(network)) return false;
  const net = ipaddr.parse(network);
  if (net.kind() !== ip.kind()) return false;
  const bits = prefix ?? (ip.kind() === 'ipv4' ? 32 : 128);
  // The kinds are equal, so the casts only pick the overload.
  return (ip as ipaddr.IPv4).match(net, bits);
}

function inPrefix(ip: ipaddr.IPv4 | ipaddr.IPv6, address: string, mech: Mechanism): boolean {
  return inRange(ip, address, ip.kind() === 'ipv4' ? mech.cidr4 : mech.cidr6);
}
