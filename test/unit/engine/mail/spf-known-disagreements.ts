// The disagreements of the SPF differential test that RFC 7208 decides, each recognised from
// the case's zone, what the engine asked and what the reference answered, never from a case
// number. A disagreement that none of these recognises fails the test. Each is a way one library
// reads a case; the test tells from the other library's answer on the same case whether the
// two references disagree with each other there (the engine giving the other's verdict) or
// the engine differs from both.
import ipaddr from 'ipaddr.js';
import type { CheckHostResult } from '../../../../src/engine/mail/spf-check';
import { BAD_MACRO_TERMS, type SpfCase } from '../../../support/spf-differential';
import type { ReferenceResult } from '../../../support/spf-reference';

export interface Query {
  name: string;
  type: string;
  /** records of the asked type in the answer */
  found: number;
  failed: boolean;
}

export interface Observed {
  case: SpfCase;
  ours: CheckHostResult & { queries: Query[] };
  reference: 'pyspf' | 'Mail::SPF';
  theirs: ReferenceResult;
}

export interface KnownDisagreement {
  id: string;
  /** the library that reads the case this way */
  reference: Observed['reference'];
  /** about how void look-ups are counted (RFC 7208 section 4.6.4) */
  aboutVoids: boolean;
  /** the RFC 7208 section that decides it */
  section: string;
  /** which side the section bears out, and why */
  why: string;
  applies: (o: Observed) => boolean;
}

const MAX_VOIDS = 2;

/** The explanation look-ups (exp=x.<domain> and names under it) are not terms. */
function isExplanationName(o: Observed, name: string): boolean {
  const x = `x.${o.case.domain}`;
  return name === x || name.endsWith(`.${x}`);
}

/** The engine's questions that found nothing, one by one rather than term by term. */
function voidQueries(o: Observed): Query[] {
  return o.ours.queries.filter((q) => !q.failed && q.found === 0 && !isExplanationName(o, q.name));
}

function theyHitVoidLimit(o: Observed): boolean {
  return (
    o.theirs.result === 'permerror' && /void/i.test(o.theirs.reason ?? '') && !oursHitVoidLimit(o)
  );
}

function oursHitVoidLimit(o: Observed): boolean {
  return o.ours.result === 'permerror' && o.ours.void_lookups > MAX_VOIDS;
}

/** An MX host's address question failed after an earlier host of its MX set had addresses. */
function mxHostFailedAfterOneWithAddresses(o: Observed): boolean {
  const failed = o.ours.queries.find((q) => q.failed);
  if (failed === undefined || (failed.type !== 'A' && failed.type !== 'AAAA')) return false;
  const exchange = (r: { data: unknown }) => (r.data as { exchange?: string }).exchange;
  const mxs = o.case.records.filter((r) => r.type === 'MX');
  return mxs.some((mx, i) => {
    if (exchange(mx) !== failed.name) return false;
    return mxs
      .slice(0, i)
      .some(
        (earlier) =>
          earlier.name === mx.name &&
          o.ours.queries.some(
            (q) => q.name === exchange(earlier) && q.type === failed.type && q.found > 0,
          ),
      );
  });
}

function zoneHas(o: Observed, name: string, type: string): boolean {
  return o.case.records.some((r) => r.name === name && r.type === type);
}

/** The explanation text the case publishes (the same at x.<domain> and under it). */
function explanationTemplate(o: Observed): string | undefined {
  const rec = o.case.records.find((r) => r.type === 'TXT' && isExplanationName(o, r.name));
  return rec === undefined ? undefined : (rec.data as unknown[]).map(String).join('');
}

/** The SPF records at the names the engine fetched. */
function fetchedPolicies(o: Observed): string[] {
  return o.case.records
    .filter(
      (r) =>
        r.type === 'TXT' &&
        o.ours.queries.some((q) => q.name === r.name && q.type === 'TXT' && q.found > 0),
    )
    .map((r) => (r.data as unknown[]).map(String).join(''))
    .filter((t) => /^v=spf1( |$)/i.test(t));
}

function bothFailWithDifferentText(o: Observed): boolean {
  return (
    o.ours.result === 'fail' &&
    o.theirs.result === 'fail' &&
    o.ours.explanation !== o.theirs.explanation
  );
}

/**
 * A MAIL FROM without a local-part ("@example.com") whose explanations differ only where the
 * reference wrote the sender as it is and the engine wrote postmaster@ before it (%{s}).
 */
function emptyLocalPartKept(o: Observed): boolean {
  return (
    o.case.sender.startsWith('@') &&
    bothFailWithDifferentText(o) &&
    withPostmaster(o.theirs.explanation, o.case.sender, ['']).test(o.ours.explanation ?? '')
  );
}

/**
 * The explanation `theirs` with "postmaster" (and one of `joins`) allowed before each place it
 * writes `bare`, as a whole-text pattern, case aside: the engine's text matches it when it
 * differs only by writing postmaster where a reference wrote %{s} without a local-part. Each
 * place on its own, as the same text may also stand for %{d} or %{h}, which both write bare.
 */
function withPostmaster(theirs: string | undefined, bare: string, joins: string[]): RegExp {
  const escape = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const before = `(?:postmaster(?:${joins.map(escape).join('|')}))?`;
  const parts = (theirs ?? '').split(bare).map(escape);
  return new RegExp(`^${parts.join(`${before}${escape(bare)}`)}$`, 'i');
}

export const KNOWN_DISAGREEMENTS: KnownDisagreement[] = [
  {
    id: 'servfail-read-as-empty',
    reference: 'pyspf',
    aboutVoids: false,
    section: '5',
    why:
      'pyspf (over pydns) reads a SERVFAIL answer as an empty one; a DNS error (RCODE other ' +
      'than 0 or 3) ends check_host() with temperror',
    applies: (o) =>
      o.reference === 'pyspf' &&
      o.ours.result === 'temperror' &&
      o.theirs.result !== 'temperror' &&
      o.ours.queries.some((q) => q.failed),
  },
  {
    // Not a way of counting void look-ups: pyspf makes look-ups that check_host() does not make
    // at that point, and counts them as any other.
    id: 'p-macro-expanded-early',
    reference: 'pyspf',
    aboutVoids: true,
    section: '4.6.2, 4.6.4, 6.2',
    why:
      'pyspf fetches exp= and expands %{p} (its PTR and address questions) while it parses a ' +
      'record, before any term is evaluated ("always fetch explanation", spf.py), and counts ' +
      'the void look-ups behind them; terms are evaluated in order until one matches (4.6.2), ' +
      'exp= only after a fail (6.2), and its look-up is not subject to the limits (4.6.4). The ' +
      'same questions asked in their turn count alike on both sides',
    applies: (o) =>
      o.reference === 'pyspf' &&
      theyHitVoidLimit(o) &&
      [explanationTemplate(o) ?? '', ...fetchedPolicies(o)].some((t) => /%\{p/i.test(t)),
  },
  {
    // About how void look-ups are counted, and the two references disagree with each other:
    // the verdict follows Mail::SPF and section 4.6.4's answer count, and a problem line gives
    // pyspf's.
    id: 'cname-counted-per-name',
    reference: 'pyspf',
    aboutVoids: true,
    section: '4.6.4',
    why:
      'pyspf follows a CNAME chain that ends without records with a question of its own and ' +
      'counts a void look-up at each name of the chain (spf.py dns(): once in the recursion, ' +
      'once on return); Mail::SPF counts a question whose answer section is empty, and one that ' +
      'holds the chain is not, as the section counts answers with an answer count of 0. The ' +
      "engine's problem line says that receivers running pyspf give permerror",
    applies: (o) =>
      o.reference === 'pyspf' &&
      theyHitVoidLimit(o) &&
      voidQueries(o).some((q) => zoneHas(o, q.name, 'CNAME')) &&
      (o.ours.problems ?? []).some((p) => /pyspf counts each name of the chain/.test(p)),
  },
  {
    // Not a way of counting void look-ups: Mail::SPF leaves out questions the section asks,
    // and pyspf asks them and counts them as the engine does.
    id: 'ptr-names-outside-target',
    reference: 'Mail::SPF',
    aboutVoids: true,
    section: '5.5',
    why:
      'Mail::SPF validates only the PTR names inside the target domain, so a name outside it ' +
      'that has no address is never asked; the section validates every name returned (up to ' +
      '10) and pyspf asks them all too, and an empty answer there is a void look-up of the ' +
      "ptr term on every side that asks it. The engine's problem line says that receivers " +
      'running Mail::SPF stay within the limit there',
    applies: (o) =>
      o.reference === 'Mail::SPF' &&
      oursHitVoidLimit(o) &&
      o.theirs.result !== 'permerror' &&
      // a void address question of a PTR name; the engine's line says it was outside the
      // target of the ptr term that asked it (ptr:elsewhere.test, or under another domain)
      voidQueries(o).some((q) =>
        o.case.records.some((r) => r.type === 'PTR' && r.data === q.name),
      ) &&
      (o.ours.problems ?? []).some((p) => /Mail::SPF asks only the names under the target/.test(p)),
  },
  {
    // About how void look-ups are counted, and the references disagree with each other: the
    // verdict follows pyspf, and a problem line gives Mail::SPF's.
    id: 'mx-hosts-after-match',
    reference: 'Mail::SPF',
    aboutVoids: true,
    section: '5.4, 4.6.4',
    why:
      'Mail::SPF looks up the MX hosts in order and stops at the first whose address matches, ' +
      'so the void look-ups of the hosts after it are never made; pyspf looks up every host ' +
      'and counts each void one, as the section, which matches when any host matches, leaves ' +
      "no order to stop at. The engine's problem line says that receivers running Mail::SPF " +
      'find the mechanism matching there',
    applies: (o) =>
      o.reference === 'Mail::SPF' &&
      oursHitVoidLimit(o) &&
      o.theirs.result !== 'permerror' &&
      (o.ours.problems ?? []).some((p) => /Mail::SPF stops at the first MX host/.test(p)),
  },
  {
    // About how void look-ups are counted, and the references disagree with each other: the
    // verdict follows pyspf and sections 6.2 and 4.6.4, and a problem line gives Mail::SPF's.
    id: 'exp-expanded-after-any-result',
    reference: 'Mail::SPF',
    aboutVoids: true,
    section: '6.2, 4.6.4',
    why:
      "Mail::SPF expands a record's exp= whenever the record reaches a result, not only a " +
      "fail, and counts the void look-ups of validating the client's name for its %{p} " +
      'each time; exp= is used only after a fail (6.2) and its look-ups are not counted ' +
      "(4.6.4), and pyspf does not count them again. The engine's problem line says that " +
      'receivers running Mail::SPF give permerror',
    applies: (o) =>
      o.reference === 'Mail::SPF' &&
      theyHitVoidLimit(o) &&
      (o.ours.problems ?? []).some((p) => /Mail::SPF expands it whatever the result/.test(p)),
  },
  {
    // The same %{p} that pyspf counts as it reads the record (p-macro-expanded-early): the
    // references disagree with each other on the verdict, and a problem line gives pyspf's.
    id: 'explanation-p-over-limit',
    reference: 'Mail::SPF',
    aboutVoids: true,
    section: '6.2, 4.6.4',
    why:
      "Mail::SPF gives fail, then counts the void look-ups of the explanation's %{p} when the " +
      'text is expanded and throws its void-limit error there instead of giving one; the ' +
      'explanation is expanded after the result and its look-ups are not counted (6.2, 4.6.4)',
    applies: (o) =>
      o.reference === 'Mail::SPF' &&
      o.ours.result === 'fail' &&
      o.theirs.result === 'fail' &&
      /void/i.test(o.theirs.explanation_error ?? '') &&
      /%\{p/i.test(explanationTemplate(o) ?? ''),
  },
  {
    // The same %{p} that pyspf counts as it reads the record (p-macro-expanded-early), here
    // with the record's own result a fail: pyspf keeps the fail and drops the explanation.
    id: 'explanation-p-over-limit-dropped',
    reference: 'pyspf',
    aboutVoids: true,
    section: '6.2, 4.6.4',
    why:
      "pyspf counts the void look-ups of the explanation's %{p} (the client's PTR names that " +
      "have no address) with the terms' and, past the limit, gives the fail without its " +
      'explanation; the explanation is expanded after the result and its look-ups are not ' +
      'counted (6.2, 4.6.4)',
    applies: (o) =>
      o.reference === 'pyspf' &&
      o.ours.result === 'fail' &&
      o.theirs.result === 'fail' &&
      o.theirs.explanation === undefined &&
      o.ours.explanation !== undefined &&
      /%\{p/i.test(explanationTemplate(o) ?? '') &&
      voidQueries(o).filter((q) =>
        o.case.records.some((r) => r.type === 'PTR' && r.data === q.name),
      ).length > MAX_VOIDS,
  },
  {
    // About how void look-ups are counted, and the references disagree with each other: the
    // verdict follows pyspf and the section's reading.
    id: 'ptr-names-after-match',
    reference: 'Mail::SPF',
    aboutVoids: true,
    section: '5.5, 4.6.4',
    why:
      'Mail::SPF validates the PTR names in order and stops at the first that validates within ' +
      'the target, so the void look-ups of the names after it are never made; the section ' +
      'validates every name returned (up to 10) and then checks the validated ones, and pyspf ' +
      'looks them all up and counts each void one too',
    applies: (o) => {
      if (o.reference !== 'Mail::SPF' || !oursHitVoidLimit(o)) return false;
      if (o.theirs.result === 'permerror') return false;
      const ptrNames = new Set(
        o.case.records.filter((r) => r.type === 'PTR').map((r) => String(r.data)),
      );
      // a PTR name with the client's address, asked before a PTR name that had none
      const asked = o.ours.queries.filter((q) => ptrNames.has(q.name) && !q.failed);
      const validated = asked.findIndex((q) =>
        o.case.records.some(
          (r) => r.name === q.name && (r.type === 'A' || r.type === 'AAAA') && r.data === o.case.ip,
        ),
      );
      return validated >= 0 && asked.slice(validated + 1).some((q) => q.found === 0);
    },
  },
  {
    id: 'mx-host-error-after-match',
    reference: 'Mail::SPF',
    aboutVoids: false,
    section: '5, 5.4',
    why:
      'Mail::SPF looks up the MX hosts in order and stops at the first whose address matches, ' +
      'so a DNS error of a host after it is never seen; a DNS error ends check_host() with ' +
      'temperror (5), and the section, which matches when any host matches, leaves no order ' +
      'to stop at (pyspf over dnspython gives temperror too)',
    applies: (o) =>
      o.reference === 'Mail::SPF' &&
      o.ours.result === 'temperror' &&
      o.theirs.result !== 'temperror' &&
      mxHostFailedAfterOneWithAddresses(o),
  },
  {
    id: 'empty-local-part-kept',
    reference: 'pyspf',
    aboutVoids: false,
    section: '4.3, 7.3',
    why:
      'pyspf expands %{s} of a MAIL FROM with an empty local-part ("@example.com") as it is; ' +
      'section 4.3 substitutes "postmaster" for a missing local-part, as Mail::SPF does',
    applies: (o) => o.reference === 'pyspf' && emptyLocalPartKept(o),
  },
  {
    id: 'empty-local-part-kept-in-s',
    reference: 'Mail::SPF',
    aboutVoids: false,
    section: '4.3, 7.3',
    why:
      'Mail::SPF expands %{l} of a MAIL FROM with an empty local-part ("@example.com") to ' +
      '"postmaster" but %{s} to the sender as it is; section 4.3 substitutes "postmaster" for ' +
      'the missing local-part of <sender> itself, so %{s} is postmaster@example.com',
    applies: (o) => o.reference === 'Mail::SPF' && emptyLocalPartKept(o),
  },
  {
    id: 'helo-sender-without-local-part',
    reference: 'Mail::SPF',
    aboutVoids: false,
    section: '4.3, 7.3',
    why:
      'Mail::SPF expands %{s} of a HELO check to the bare HELO name; the <sender> of a HELO ' +
      'check has no local-part, and section 4.3 substitutes "postmaster" for it ' +
      '(%{s} is postmaster@<helo>), as pyspf does',
    applies: (o) =>
      o.reference === 'Mail::SPF' &&
      o.case.sender === '' &&
      bothFailWithDifferentText(o) &&
      withPostmaster(o.theirs.explanation, o.case.helo, ['@', '%40']).test(
        o.ours.explanation ?? '',
      ),
  },
  {
    id: 'self-include-not-reached',
    reference: 'pyspf',
    aboutVoids: false,
    section: '4.6.2, 4.6.4',
    why:
      'pyspf rejects a policy that includes itself before evaluating it; terms are evaluated ' +
      'in order and the first match decides, so a self-include after the deciding term is ' +
      'never reached, and one that is reached ends in the look-up limit',
    applies: (o) =>
      o.reference === 'pyspf' &&
      o.theirs.result === 'permerror' &&
      o.ours.result !== 'permerror' &&
      o.case.records.some(
        (r) =>
          r.type === 'TXT' &&
          r.name === o.case.domain &&
          (r.data as unknown[])
            .map(String)
            .join('')
            .toLowerCase()
            .split(' ')
            .some((w) => w.replace(/^[+\-~?]/, '') === `include:${o.case.domain}`),
      ),
  },
  {
    id: 'ip-family-mismatch',
    reference: 'Mail::SPF',
    aboutVoids: false,
    section: '5.6',
    why:
      'Mail::SPF matches an IPv4 client against an ip6 network as its IPv4-mapped address ' +
      '(::ffff:a.b.c.d: any network that holds it, /0 or /2 alike), and an IPv6 client against ' +
      'ip4 networks of prefix length 0; an IPv4 client is not in an IPv6 network, nor the reverse',
    applies: (o) => {
      if (o.reference !== 'Mail::SPF' || o.theirs.result === o.ours.result) return false;
      const v4 = !o.case.ip.includes(':') || o.case.ip.startsWith('::ffff:');
      const mapped = ipaddr.parse(v4 ? `::ffff:${o.case.ip.replace(/^::ffff:/, '')}` : '::');
      const holdsClient = (network: string, prefix: string): boolean => {
        if (!v4) return prefix === '0';
        try {
          const parsed = ipaddr.parse(network);
          return parsed.kind() === 'ipv6' && mapped.match(parsed, Number(prefix || '128'));
        } catch {
          return false;
        }
      };
      const other = v4
        ? /(?:^| )[+\-~?]?ip6:(\S+?)(?:\/(\d+))?(?= |$)/gi
        : /(?:^| )[+\-~?]?ip4:(\S+?)\/(0)(?= |$)/gi;
      return o.case.records.some(
        (r) =>
          r.type === 'TXT' &&
          [...(r.data as unknown[]).map(String).join('').matchAll(other)].some((m) =>
            holdsClient(m[1], m[2] ?? ''),
          ),
      );
    },
  },
  {
    id: 'mx-over-10-truncated',
    reference: 'Mail::SPF',
    aboutVoids: false,
    section: '4.6.4',
    why:
      'Mail::SPF uses the first 10 of more than 10 MX records; the section says the mx ' +
      'mechanism then MUST produce permerror',
    applies: (o) =>
      o.reference === 'Mail::SPF' &&
      o.ours.result === 'permerror' &&
      o.theirs.result !== 'permerror' &&
      o.ours.queries.some((q) => q.type === 'MX' && q.found > 10),
  },
  {
    id: 'macro-error-unreached',
    reference: 'Mail::SPF',
    aboutVoids: false,
    section: '4.6, 7.1',
    why:
      'Mail::SPF only sees a macro syntax error when it expands that term; a syntax error ' +
      'anywhere in the record is permerror before any term is evaluated',
    applies: (o) =>
      o.reference === 'Mail::SPF' &&
      o.ours.result === 'permerror' &&
      o.theirs.result !== 'permerror' &&
      o.case.records.some(
        (r) =>
          r.type === 'TXT' &&
          o.ours.queries.some((q) => q.name === r.name && q.type === 'TXT' && q.found > 0) &&
          BAD_MACRO_TERMS.some((bad) => (r.data as unknown[]).map(String).join('').includes(bad)),
      ),
  },
  {
    id: 'delimiters-without-transformer',
    reference: 'Mail::SPF',
    aboutVoids: false,
    section: '7.3',
    why:
      'Mail::SPF splits on a macro\'s delimiters only when digits or "r" are given; the parts ' +
      'are always split on the delimiters and rejoined with "." (%{l-} of strong-bad is strong.bad)',
    applies: (o) =>
      o.reference === 'Mail::SPF' &&
      bothFailWithDifferentText(o) &&
      /%\{[a-z][.\-+,/_=]+\}/i.test(explanationTemplate(o) ?? ''),
  },
  {
    id: 'ipv6-nibbles-upper-case',
    reference: 'pyspf',
    aboutVoids: false,
    section: '7.3, 7.4',
    why:
      'pyspf writes the IPv6 %{i} nibbles in upper case; the examples of section 7.4 write ' +
      'them in lower case (names compare without case, so only the explanation text differs)',
    applies: (o) =>
      o.reference === 'pyspf' &&
      bothFailWithDifferentText(o) &&
      o.case.ip.includes(':') &&
      !o.case.ip.startsWith('::ffff:') &&
      o.ours.explanation?.toUpperCase() === o.theirs.explanation?.toUpperCase(),
  },
  {
    id: 'trailing-percent-escape',
    reference: 'pyspf',
    aboutVoids: false,
    section: '7.1',
    why:
      'pyspf rejects an explanation that ends in the escape "%%" and gives none; "%%" is a ' +
      'macro-escape anywhere in a macro-string',
    applies: (o) =>
      o.reference === 'pyspf' &&
      bothFailWithDifferentText(o) &&
      o.theirs.explanation === undefined &&
      /%%$/.test(explanationTemplate(o) ?? ''),
  },
];
