// SPF policies written in text (zone-file TXT records, YAML, Terraform, prose): where they are
// and what is wrong with them, with offsets into the line. Pure; the editor turns the findings
// into diagnostics. Syntax comes from the engine's parser, so the editor and the evaluator
// agree on what is valid.
import { LOOKUP_TERMS, parseSpf } from '../engine/mail/spf-parse';
import { SPF_MAX_LOOKUPS } from '../contract/limits';

export interface SpfInLine {
  /** the policy text, with the strings of a split TXT record joined */
  text: string;
  /** for each character of `text`, its offset in the line */
  offsets: number[];
}

export interface SpfFinding {
  start: number;
  end: number;
  severity: 'error' | 'warning' | 'info';
  code: string;
  message: string;
}

/** The SPF policies on one line: quoted (several adjacent strings joined) or bare. */
export function findSpfPolicies(line: string): SpfInLine[] {
  const found: SpfInLine[] = [];
  const pattern = /v=spf1(?=\s|"|$)/gi;
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(line)) !== null) {
    const policy = quoteBefore(line, match.index)
      ? quotedPolicy(line, match.index)
      : barePolicy(line, match.index);
    found.push(policy);
    pattern.lastIndex = (policy.offsets.at(-1) ?? match.index) + 1;
  }
  return found;
}

function quoteBefore(line: string, index: number): boolean {
  let quotes = 0;
  for (let i = 0; i < index; i++) if (line[i] === '"' && line[i - 1] !== '\\') quotes++;
  return quotes % 2 === 1;
}

/** From v=spf1 to the closing quote, then any strings that follow ("…" "…"). */
function quotedPolicy(line: string, start: number): SpfInLine {
  const result: SpfInLine = { text: '', offsets: [] };
  let i = start;
  for (;;) {
    while (i < line.length && line[i] !== '"') {
      if (line[i] === '\\' && i + 1 < line.length) i++;
      result.text += line[i];
      result.offsets.push(i);
      i++;
    }
    const next = /^"\s*"/.exec(line.slice(i));
    if (!next) break;
    i += next[0].length;
  }
  return result;
}

function barePolicy(line: string, start: number): SpfInLine {
  const end = line.slice(start).search(/["'`;#]|\s\/\//);
  const stop = end === -1 ? line.length : start + end;
  const text = line.slice(start, stop).replace(/[\s,]+$/, '');
  return { text, offsets: [...text].map((_, i) => start + i) };
}

/** Syntax errors and RFC 7208 problems that the text alone shows. */
export function lintSpf(policy: SpfInLine): SpfFinding[] {
  const parsed = parseSpf(policy.text);
  const findings: SpfFinding[] = [];
  const spans = termSpans(policy);
  const spanOf = (term: string) =>
    spans.find((s) => s.text === term) ?? spans[0] ?? { start: 0, end: 0 };
  for (const error of parsed.errors) {
    findings.push({
      ...spanOf(error.term),
      severity: 'error',
      code: 'spf_syntax',
      message: error.message,
    });
  }
  for (const m of parsed.mechanisms) {
    if (m.name === 'all' && m.qualifier === '+') {
      findings.push({
        ...spanOf(m.text),
        severity: 'warning',
        code: 'spf_pass_all',
        message: '"+all" lets every server on the internet send as this domain',
      });
    }
    if (m.name === 'ptr') {
      findings.push({
        ...spanOf(m.text),
        severity: 'warning',
        code: 'spf_ptr',
        message:
          'The ptr mechanism is deprecated (RFC 7208 section 5.5): it is slow and unreliable',
      });
    }
  }
  if (parsed.redirect !== undefined && parsed.mechanisms.some((m) => m.name === 'all')) {
    const redirect = parsed.terms.find((t) => t.kind === 'modifier' && t.name === 'redirect');
    findings.push({
      ...spanOf(redirect?.text ?? ''),
      severity: 'warning',
      code: 'spf_redirect_with_all',
      message: 'redirect= is ignored when the policy has an "all" mechanism',
    });
  }
  const lookups = countLookupTerms(policy.text);
  if (lookups > SPF_MAX_LOOKUPS) {
    findings.push({
      ...wholeSpan(policy),
      severity: 'error',
      code: 'spf_too_many_lookups',
      message: `${lookups} DNS-querying terms in this policy alone; RFC 7208 allows 10`,
    });
  }
  return findings;
}

/** include, a, mx, ptr, exists and redirect terms written in this policy (not its includes). */
export function countLookupTerms(text: string): number {
  return parseSpf(text).terms.filter((t) => LOOKUP_TERMS.has(t.name)).length;
}

/** include: and redirect= targets without macros: what the on-save count asks about. */
export function lookupTargets(text: string): string[] {
  const parsed = parseSpf(text);
  const targets = parsed.mechanisms
    .filter((m) => m.name === 'include')
    .map((m) => m.domainSpec ?? '');
  if (parsed.redirect !== undefined && !parsed.mechanisms.some((m) => m.name === 'all'))
    targets.push(parsed.redirect);
  return targets.filter((t) => t !== '' && !t.includes('%'));
}

/** An include or redirect term on its line, with the name it names. */
export interface LookupTargetTerm {
  target: string;
  via: 'include' | 'redirect';
  start: number;
  end: number;
}

/** The include and redirect terms whose targets `lookupTargets` gives, where they are. */
export function lookupTargetTerms(policy: SpfInLine): LookupTargetTerm[] {
  const targets = new Set(lookupTargets(policy.text).map((t) => t.toLowerCase()));
  const terms: LookupTargetTerm[] = [];
  for (const span of termSpans(policy)) {
    const term = /^(?:[+\-~?]?(include):|(redirect)=)(.+)$/i.exec(span.text);
    if (!term || !targets.has(term[3].toLowerCase())) continue;
    const via = term[1] !== undefined ? 'include' : 'redirect';
    terms.push({ target: term[3], via, start: span.start, end: span.end });
  }
  return terms;
}

function termSpans(policy: SpfInLine): Array<{ text: string; start: number; end: number }> {
  const spans: Array<{ text: string; start: number; end: number }> = [];
  const pattern = /\S+/g;
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(policy.text)) !== null) {
    const first = policy.offsets[match.index] ?? 0;
    const last = policy.offsets[match.index + match[0].length - 1] ?? first;
    spans.push({ text: match[0], start: first, end: last + 1 });
  }
  return spans;
}

function wholeSpan(policy: SpfInLine): { start: number; end: number } {
  return { start: policy.offsets[0] ?? 0, end: (policy.offsets.at(-1) ?? 0) + 1 };
}
