// The SPF record grammar of RFC 7208 (sections 4.5, 4.6, 5, 6 and 7.1), pure: text in, terms
// and syntax errors out. Both the tree builder (spf.ts) and check_host (spf-check.ts) use it,
// so the editor's diagnostics and the evaluator can never disagree about what is valid.
import { isIPv6 } from 'node:net';
import ipaddr from 'ipaddr.js';

export type Qualifier = '+' | '-' | '~' | '?';
export type MechanismName = 'all' | 'include' | 'a' | 'mx' | 'ptr' | 'ip4' | 'ip6' | 'exists';

export interface Mechanism {
  kind: 'mechanism';
  /** the term as written */
  text: string;
  qualifier: Qualifier;
  /** whether the qualifier was written out (for flagging "+all") */
  explicitQualifier: boolean;
  name: MechanismName;
  /** include, a, mx, ptr, exists: the unexpanded domain-spec, when given */
  domainSpec?: string;
  /** ip4, ip6: the network address as written */
  address?: string;
  /** prefix length for IPv4 (ip4, a, mx) */
  cidr4?: number;
  /** prefix length for IPv6 (ip6, a, mx) */
  cidr6?: number;
}

export interface Modifier {
  kind: 'modifier';
  text: string;
  /** lower case */
  name: string;
  value: string;
}

export type Term = Mechanism | Modifier;

export interface SpfSyntaxError {
  /** the term at fault, or the whole record when no term is */
  term: string;
  message: string;
}

export interface ParsedSpf {
  terms: Term[];
  mechanisms: Mechanism[];
  /** domain-spec of redirect=, when present once */
  redirect?: string;
  /** domain-spec of exp=, when present once */
  exp?: string;
  errors: SpfSyntaxError[];
}

/** Mechanisms and modifiers that make check_host query DNS (RFC 7208 section 4.6.4). */
export const LOOKUP_TERMS: ReadonlySet<string> = new Set([
  'include',
  'a',
  'mx',
  'ptr',
  'exists',
  'redirect',
]);

const VERSION = /^v=spf1(?: |$)/i;

/** Whether a TXT record is an SPF version 1 record (RFC 7208 section 4.5). */
export function isSpfRecord(txt: string): boolean {
  return VERSION.test(txt);
}

const MECHANISMS: ReadonlySet<string> = new Set([
  'all',
  'include',
  'a',
  'mx',
  'ptr',
  'ip4',
  'ip6',
  'exists',
]);
const MODIFIER_NAME = /^[a-z][a-z0-9_.-]*$/i;
const DIRECTIVE = /^([+\-~?]?)([a-z][a-z0-9_.-]*)(.*)$/i;

/** Parses an SPF record; `errors` is empty exactly when the whole record is valid. */
export function parseSpf(record: string): ParsedSpf {
  const result: ParsedSpf = { terms: [], mechanisms: [], errors: [] };
  if (!isSpfRecord(record)) {
    result.errors.push({ term: record, message: 'The record does not start with "v=spf1"' });
    return result;
  }
  // Only SP separates terms; any other control or non-ASCII character is a syntax error.
  const bad = /[^\x20-\x7e]/.exec(record);
  if (bad) {
    const code = bad[0].codePointAt(0)!.toString(16).padStart(2, '0');
    const term = record.split(' ').find((t) => t.includes(bad[0])) ?? record;
    result.errors.push({ term, message: `The character U+${code} is not allowed in SPF` });
  }
  const words = record
    .slice(6)
    .split(' ')
    .filter((w) => w !== '');
  let redirects = 0;
  let exps = 0;
  for (const word of words) {
    const term = parseTerm(word, result.errors);
    if (!term) continue;
    result.terms.push(term);
    if (term.kind === 'mechanism') {
      result.mechanisms.push(term);
    } else if (term.name === 'redirect') {
      redirects += 1;
      result.redirect = term.value;
    } else if (term.name === 'exp') {
      exps += 1;
      result.exp = term.value;
    }
  }
  if (redirects > 1) {
    result.errors.push({
      term: 'redirect=',
      message: 'The redirect modifier appears more than once',
    });
  }
  if (exps > 1) {
    result.errors.push({ term: 'exp=', message: 'The exp modifier appears more than once' });
  }
  return result;
}

function parseTerm(word: string, errors: SpfSyntaxError[]): Term | undefined {
  const eq = word.indexOf('=');
  const colonOrSlash = word.search(/[:/]/);
  if (eq > 0 && (colonOrSlash === -1 || eq < colonOrSlash)) {
    const name = word.slice(0, eq);
    const value = word.slice(eq + 1);
    if (!MODIFIER_NAME.test(name)) {
      errors.push({ term: word, message: `"${name}" is not a valid modifier name` });
      return undefined;
    }
    const lower = name.toLowerCase();
    const err =
      lower === 'redirect' || lower === 'exp'
        ? domainSpecError(value, false)
        : macroStringError(value, false);
    if (err) {
      errors.push({ term: word, message: err });
      return undefined;
    }
    return { kind: 'modifier', text: word, name: lower, value };
  }
  const m = DIRECTIVE.exec(word);
  const name = m?.[2]?.toLowerCase();
  if (!m || name === undefined || !MECHANISMS.has(name)) {
    errors.push({ term: word, message: `"${word}" is not a known mechanism or modifier` });
    return undefined;
  }
  const mech: Mechanism = {
    kind: 'mechanism',
    text: word,
    qualifier: (m[1] || '+') as Qualifier,
    explicitQualifier: m[1] !== '',
    name: name as MechanismName,
  };
  const err = parseArguments(mech, m[3] ?? '');
  if (err) {
    errors.push({ term: word, message: err });
    return undefined;
  }
  return mech;
}

/** Fills the mechanism's arguments from the text after its name; returns an error message. */
function parseArguments(mech: Mechanism, rest: string): string | undefined {
  switch (mech.name) {
    case 'all':
      return rest === '' ? undefined : '"all" takes no argument';
    case 'include':
    case 'exists': {
      if (!rest.startsWith(':') || rest.length === 1) return `"${mech.name}" needs ":domain"`;
      mech.domainSpec = rest.slice(1);
      return domainSpecError(mech.domainSpec, false);
    }
    case 'ptr': {
      if (rest === '') return undefined;
      if (!rest.startsWith(':') || rest.length === 1) return '"ptr" takes only ":domain"';
      mech.domainSpec = rest.slice(1);
      return domainSpecError(mech.domainSpec, false);
    }
    case 'a':
    case 'mx': {
      const dual = /((?:\/\d*)?(?:\/\/\d*)?)$/.exec(rest);
      const cidr = dual?.[1] ?? '';
      const head = rest.slice(0, rest.length - cidr.length);
      const cidrErr = parseDualCidr(mech, cidr);
      if (cidrErr) return cidrErr;
      if (head === '') return undefined;
      if (!head.startsWith(':') || head.length === 1) return `"${mech.name}" takes ":domain"`;
      mech.domainSpec = head.slice(1);
      return domainSpecError(mech.domainSpec, false);
    }
    case 'ip4': {
      const m = /^:([^/]*)(?:\/(.*))?$/.exec(rest);
      if (!m) return '"ip4" needs ":address"';
      if (!ipaddr.IPv4.isValidFourPartDecimal(m[1])) return `"${m[1]}" is not an IPv4 address`;
      mech.address = m[1]!;
      if (m[2] === undefined) return undefined;
      mech.cidr4 = cidrLength(m[2], 32);
      return mech.cidr4 === undefined ? `"/${m[2]}" is not an IPv4 prefix length` : undefined;
    }
    case 'ip6': {
      const m = /^:([^/]*)(?:\/(.*))?$/.exec(rest);
      if (!m) return '"ip6" needs ":address"';
      if (!isIPv6(m[1])) return `"${m[1]}" is not an IPv6 address`;
      mech.address = m[1]!;
      if (m[2] === undefined) return undefined;
      mech.cidr6 = cidrLength(m[2], 128);
      return mech.cidr6 === undefined ? `"/${m[2]}" is not an IPv6 prefix length` : undefined;
    }
  }
}

function parseDualCidr(mech: Mechanism, text: string): string | undefined {
  if (text === '') return undefined;
  const m = /^(?:\/([^/]*))?(?:\/\/(.*))?$/.exec(text);
  if (!m) return `"${text}" is not a prefix length`;
  if (m[1] !== undefined) {
    mech.cidr4 = cidrLength(m[1], 32);
    if (mech.cidr4 === undefined) return `"/${m[1]}" is not an IPv4 prefix length`;
  }
  if (m[2] !== undefined) {
    mech.cidr6 = cidrLength(m[2], 128);
    if (mech.cidr6 === undefined) return `"//${m[2]}" is not an IPv6 prefix length`;
  }
  return undefined;
}

/** A prefix length without leading zeros, at most `max`. */
function cidrLength(text: string, max: number): number | undefined {
  if (!/^(?:0|[1-9]\d{0,2})$/.test(text)) return undefined;
  const n = Number(text);
  return n <= max ? n : undefined;
}

// macro-expand = "%{" letter *DIGIT ["r"] *delimiter "}" / "%%" / "%_" / "%-"
const MACRO_LETTERS = 'slodiphv';
const EXP_LETTERS = 'slodiphvcrt';

export interface MacroExpand {
  letter: string;
  /** the letter was upper case: URL-escape the value */
  escape: boolean;
  /** keep this many right-hand parts; undefined keeps all */
  digits?: number;
  reverse: boolean;
  /** characters the value is split on; "." when none given */
  delimiters: string;
}

export type MacroToken = string | MacroExpand;

/** A macro-string that breaks the grammar of section 7.1. */
export class MacroSyntaxError extends Error {}

/**
 * Splits a macro-string into literal text and expansions. Throws a message string on a
 * syntax error; `exp` allows the explanation-only letters c, r and t and spaces.
 */
export function tokenizeMacroString(text: string, exp: boolean): MacroToken[] {
  const tokens: MacroToken[] = [];
  let literal = '';
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i];
    if (ch !== '%') {
      const code = ch.charCodeAt(0);
      const ok = (code >= 0x21 && code <= 0x7e) || (exp && code === 0x20);
      if (!ok) throw new MacroSyntaxError(`The character "${ch}" is not allowed here`);
      literal += ch;
      continue;
    }
    const next = text[i + 1];
    if (next === '%' || next === '_' || next === '-') {
      literal += next === '%' ? '%' : next === '_' ? ' ' : '%20';
      i += 1;
      continue;
    }
    const m = /^%\{([a-z])(\d*)(r?)([.\-+,/_=]*)\}/i.exec(text.slice(i));
    if (next !== '{' || !m)
      throw new MacroSyntaxError(`"${text.slice(i, i + 8)}" is not a valid macro`);
    const letter = m[1].toLowerCase();
    if (!(exp ? EXP_LETTERS : MACRO_LETTERS).includes(letter)) {
      throw new MacroSyntaxError(`The macro letter "${m[1]}" is not allowed here`);
    }
    if (m[2] !== '' && Number(m[2]) === 0)
      throw new MacroSyntaxError('A macro transformer of 0 parts is not allowed');
    if (literal !== '') tokens.push(literal);
    literal = '';
    tokens.push({
      letter,
      escape: m[1] !== letter,
      ...(m[2] !== '' ? { digits: Number(m[2]) } : {}),
      reverse: m[3] !== '',
      delimiters: m[4] || '.',
    });
    i += m[0].length - 1;
  }
  if (literal !== '') tokens.push(literal);
  return tokens;
}

/** The syntax error in a macro-string, or undefined. */
export function macroStringError(text: string, exp: boolean): string | undefined {
  try {
    tokenizeMacroString(text, exp);
    return undefined;
  } catch (err) {
    if (err instanceof MacroSyntaxError) return err.message;
    throw err;
  }
}

// toplabel = ( *alphanum ALPHA *alphanum ) / ( 1*alphanum "-" *( alphanum / "-" ) alphanum )
const TOPLABEL = /^(?:[a-z0-9]*[a-z][a-z0-9]*|[a-z0-9]+-[a-z0-9-]*[a-z0-9])$/i;

/** The syntax error in a domain-spec (macro-string domain-end), or undefined. */
export function domainSpecError(text: string, exp: boolean): string | undefined {
  if (text === '') return 'A domain is required';
  const err = macroStringError(text, exp);
  if (err) return err;
  // domain-end: a macro expansion, or "." toplabel with an optional trailing dot.
  if (/%\{[^}]*\}$/.test(text)) return undefined;
  const body = text.endsWith('.') ? text.slice(0, -1) : text;
  const dot = body.lastIndexOf('.');
  if (dot === -1) return `"${text}" is not a fully qualified domain`;
  const top = body.slice(dot + 1);
  if (!TOPLABEL.test(top)) return `"${top}" is not a valid top-level label`;
  return undefined;
}
