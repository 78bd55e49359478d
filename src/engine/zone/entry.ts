// One entry of a master file (a record or a directive, possibly spread over lines by
// parentheses) parsed against the context the entries before it left: origin, $TTL, the last
// owner and TTL (RFC 1035 section 5.1, RFC 2308 section 4).
import { emptyScannedEntry, scanEntry, tokenizeLine, type LineTokens, type Token } from './lexer';
import { isAtOrBelow, isNameError, parseName, type NameError, type ParsedName } from '../dns/names';
import { readIPv4, readIPv6Octets } from '../dns/rdata/addresses';
import { readRdata, splitCharString, type RdataOctets } from '../dns/rdata/text';
import { CLASSES, TYPES, typeCode, typeName, typesNear, upperCase } from '../dns/rdata/types';
import { looksLikeTtl, parseTtl } from '../dns/rdata/ttl';
import { generateLines } from './generate';
import { NOT_PLAIN, plainEntry, readPlainRecord } from './plain-record';
import { rowInput, type RecordRows } from './rows';
import {
  className,
  dateDirectiveFailure,
  metaTypeFailure,
  nsec3OwnerFailure,
  wildcardNsFailure,
} from './rules';
import type { SourceRange, ZoneProblem } from './types';

export interface Context {
  origin: string | undefined;
  defaultTtl: number | undefined;
  lastOwner: string | undefined;
  lastTtl: number | undefined;
}

export function sameContext(a: Context, b: Context): boolean {
  return (
    a.origin === b.origin &&
    a.defaultTtl === b.defaultTtl &&
    a.lastOwner === b.lastOwner &&
    a.lastTtl === b.lastTtl
  );
}

/** A token whose line the entry parser has set. */
export type PlacedToken = Token;

export interface EntryEnv {
  /** the zone apex (a key), or undefined when unknown */
  apex: string | undefined;
  /** the file this entry is in, for $INCLUDE; undefined for an unsaved buffer */
  file: string | undefined;
  /** problems in included files carry their file name; the top file's do not */
  fileLabel: string | undefined;
  readInclude?: (path: string, from: string | undefined) => { path: string; text: string };
  includeDepth: number;
  /** default MAX_EXPANDED_RECORDS */
  maxExpandedRecords?: number;
}

/** What a parse leaves besides the rows it added: its problems and the context after it. */
export interface Parsed {
  problems: ZoneProblem[];
  ctx: Context;
}

export function tokenRange(t: PlacedToken): SourceRange {
  return { line: t.line, start: t.start, end: t.end };
}

/**
 * Reads the entries of a held document one by one into `rows`, each in the context the one
 * before it left (`ctx`, updated in place); `problems` collects the entry's problems.
 */
export class EntryReader {
  private readonly out: EntryBuilder;
  constructor(env: EntryEnv, ctx: Context, rows: RecordRows) {
    this.out = new EntryBuilder(env, { ...ctx }, rows, []);
  }
  get ctx(): Context {
    return this.out.ctx;
  }
  /**
   * Reads the entry on lines [first, last], `lines[line - offset]` being line `line`; answers
   * its problems (undefined when none: most entries have none).
   */
  read(
    lines: LineTokens[],
    first: number,
    last: number,
    offset: number,
  ): ZoneProblem[] | undefined {
    readEntry(lines, first, last, offset, this.out);
    if (this.out.problems.length === 0) return undefined;
    const problems = this.out.problems;
    this.out.problems = [];
    return problems;
  }
}

/**
 * Reads the entry on lines [first, last] into `out`, in its context (which it updates);
 * `lines[line - offset]` is line `line`.
 */
function readEntry(
  lines: LineTokens[],
  first: number,
  last: number,
  offset: number,
  out: EntryBuilder,
): void {
  out.hasError = false;
  // where the entry ends, its closing parenthesis included
  let endLine = first;
  let endColumn = 0;
  let depth = 0;
  const head = lines[first - offset];
  let tokens: PlacedToken[];
  if (first === last && !hasParenthesis(head.tokens)) {
    // The usual entry, one line without parentheses: the line's tokens are the entry's (no
    // copy: a large file made a fifth of its garbage in copies like it).
    if (head.error) {
      out.problem(head.error.code ?? 'syntax', head.error.message, {
        line: first,
        start: head.error.start,
        end: head.error.end,
      });
    }
    tokens = head.tokens;
    for (const t of tokens) t.line = first;
    if (tokens.length > 0) endColumn = tokens[tokens.length - 1].end;
  } else {
    tokens = [];
    for (let line = first; line <= last; line++) {
      const lt = lines[line - offset];
      if (lt.error) {
        out.problem(lt.error.code ?? 'syntax', lt.error.message, {
          line,
          start: lt.error.start,
          end: lt.error.end,
        });
      }
      for (const t of lt.tokens) {
        endLine = line;
        endColumn = t.end;
        if (t.kind === 'open') {
          depth++;
          if (depth > 1) out.problem('syntax', 'nested parentheses', { line, ...span(t) });
        } else if (t.kind === 'close') {
          depth--;
          if (depth < 0) {
            out.problem('syntax', 'unbalanced parentheses', { line, ...span(t) });
            depth = 0;
          }
        } else {
          t.line = line;
          tokens.push(t);
        }
      }
    }
  }
  if (depth > 0) {
    const lt = lines[last - offset];
    const end = lt.tokens.length > 0 ? lt.tokens[lt.tokens.length - 1].end : 0;
    out.problem('syntax', 'unbalanced parentheses: "(" is never closed', {
      line: first,
      start: 0,
      endLine: last,
      end,
    });
  }
  if (tokens.length === 0 || out.hasError) return;
  readTokens(tokens, lines[first - offset].leadingBlank, out, endLine, endColumn);
}

/** An entry's tokens (parentheses left out) as a directive or a record. */
function readTokens(
  tokens: PlacedToken[],
  leadingBlank: boolean,
  out: EntryBuilder,
  endLine: number,
  endColumn: number,
): void {
  if (!leadingBlank && tokens[0].kind === 'word' && tokens[0].text.startsWith('$')) {
    directive(tokens, out);
  } else {
    record(tokens, leadingBlank, out, endLine, endColumn);
  }
}

function hasParenthesis(tokens: Token[]): boolean {
  for (const t of tokens) if (t.kind === 'open' || t.kind === 'close') return true;
  return false;
}

function span(t: Token): { start: number; end: number } {
  return { start: t.start, end: t.end };
}

/**
 * Where entries are read into: records go to the rows, problems to a list, and the context is
 * carried from entry to entry, so a large file makes no lists or context copies per line.
 */
class EntryBuilder {
  hasError = false;
  /**
   * The last name read by ownerName, and from what: records of one owner come together
   * ("www A", "www AAAA", or a blank owner), and each would otherwise make the full name and
   * its key again.
   */
  private lastText: string | undefined;
  private lastOrigin: string | undefined;
  private lastName: ParsedName | undefined;
  constructor(
    readonly env: EntryEnv,
    readonly ctx: Context,
    readonly rows: RecordRows,
    public problems: ZoneProblem[],
  ) {}
  problem(
    code: string,
    message: string,
    range: SourceRange,
    severity: 'error' | 'warning' = 'error',
  ): ZoneProblem {
    if (severity === 'error') this.hasError = true;
    const p: ZoneProblem = { code, severity, message, range };
    if (this.env.fileLabel !== undefined) p.file = this.env.fileLabel;
    this.problems.push(p);
    return p;
  }
  /** parseName(text, origin), the last answer kept (a pure function of the two). */
  ownerName(text: string, origin: string | undefined): ParsedName | NameError {
    if (text === this.lastText && origin === this.lastOrigin && this.lastName !== undefined) {
      return this.lastName;
    }
    const parsed = parseName(text, origin);
    if (isNameError(parsed)) return parsed;
    this.lastText = text;
    this.lastOrigin = origin;
    this.lastName = parsed;
    return parsed;
  }
  /** The key of an absolute name as written (the owner of the record before, mostly). */
  keyOf(owner: string): string {
    if (owner === this.lastName?.text) return this.lastName.key;
    // the owner as written: its key is not always its lower case (`\065` is `a`)
    const parsed = this.ownerName(owner, undefined);
    return isNameError(parsed) ? owner.toLowerCase() : parsed.key;
  }
  done(): Parsed {
    return { problems: this.problems, ctx: this.ctx };
  }
}

function directive(tokens: PlacedToken[], out: EntryBuilder): void {
  const [head, ...args] = tokens;
  const name = head.text.toUpperCase();
  const headRange = tokenRange(head);
  if (name === '$ORIGIN') {
    if (args.length !== 1) {
      out.problem('bad-directive', '$ORIGIN takes one name', headRange);
      return;
    }
    const origin = parseName(args[0].text, out.ctx.origin);
    if (isNameError(origin)) {
      out.problem(origin.code, origin.message, tokenRange(args[0]));
      return;
    }
    out.ctx.origin = origin.text;
  } else if (name === '$TTL') {
    const ttl = args.length === 1 ? parseTtl(args[0].text) : undefined;
    if (ttl === undefined) {
      out.problem('bad-ttl', '$TTL takes one time value (3600, 1h, 1d12h)', headRange);
      return;
    }
    out.ctx.defaultTtl = ttl;
    out.ctx.lastTtl = ttl;
  } else if (name === '$INCLUDE') {
    include(args, headRange, out);
  } else if (name === '$DATE') {
    const failure = dateDirectiveFailure(args.map((t) => t.text));
    if (failure !== undefined)
      out.problem(failure.code, failure.message, tokenRange(args[0] ?? head));
  } else if (name === '$GENERATE') {
    // Refused before its lines are made: 65,536 strings each for nothing otherwise.
    if (!roomToExpand(out, headRange, '$GENERATE')) return;
    const generated = generateLines(args);
    if ('message' in generated) {
      out.problem('bad-generate', generated.message, tokenRange(args[generated.token] ?? head));
      return;
    }
    const at: SourceRange = {
      ...headRange,
      endLine: args[args.length - 1].line,
      end: args[args.length - 1].end,
    };
    // BIND's $GENERATE leaves the owner and TTL context as it was.
    const saved = { ...out.ctx };
    for (const line of generated.lines) {
      if (!roomToExpand(out, at, '$GENERATE') || !generatedRecord(line, at, out)) break;
    }
    Object.assign(out.ctx, { lastOwner: saved.lastOwner });
  } else {
    out.problem('bad-directive', `unknown directive ${head.text}`, headRange);
  }
}

/**
 * Records a zone may reach through $INCLUDE and $GENERATE, its own and its includes' together:
 * each directive is bounded (MAX_GENERATED, MAX_INCLUDE_BYTES), but 250 $GENERATEs of 65,536
 * records, or one file included a thousand times, are not. A file's own lines are bounded by
 * its size and never refused.
 */
export const MAX_EXPANDED_RECORDS = 1_000_000;

/** Whether a directive may add records; once the zone holds MAX_EXPANDED_RECORDS, says why not. */
function roomToExpand(out: EntryBuilder, at: SourceRange, directive: string): boolean {
  const most = out.env.maxExpandedRecords ?? MAX_EXPANDED_RECORDS;
  if (out.rows.count - out.rows.dead < most) return true;
  out.problem(
    'too-many-records',
    `${directive} would take the zone past ${most} records; the rest is not read`,
    at,
  );
  return false;
}

function include(args: PlacedToken[], at: SourceRange, out: EntryBuilder): void {
  const { env } = out;
  if (args.length < 1 || args.length > 2) {
    out.problem('bad-directive', '$INCLUDE takes a file name and an optional origin', at);
    return;
  }
  if (env.readInclude === undefined || env.includeDepth >= 8) {
    out.problem('include-failed', `cannot read ${args[0].text} here`, tokenRange(args[0]));
    return;
  }
  if (!roomToExpand(out, at, '$INCLUDE')) return;
  let origin = out.ctx.origin;
  if (args[1] !== undefined) {
    const parsed = parseName(args[1].text, out.ctx.origin);
    if (isNameError(parsed)) {
      out.problem(parsed.code, parsed.message, tokenRange(args[1]));
      return;
    }
    origin = parsed.text;
  }
  let loaded: { path: string; text: string };
  try {
    loaded = env.readInclude(args[0].text, env.file);
  } catch (err) {
    out.problem(
      'include-failed',
      `cannot read ${args[0].text}: ${(err as Error).message}`,
      tokenRange(args[0]),
    );
    return;
  }
  // The included file starts from the including file's origin (or the one given) and its
  // changes of origin stay inside it (RFC 1035 section 5.1).
  // The included file's records go to the same rows, after those before the directive.
  const sub = parseText(
    loaded.text,
    { ...out.ctx, origin },
    {
      ...env,
      file: loaded.path,
      fileLabel: loaded.path,
      includeDepth: env.includeDepth + 1,
    },
    out.rows,
  );
  // One by one: a spread of a 200,000-problem include overflows the call stack.
  for (const problem of sub.problems) out.problems.push(problem);
  if (sub.problems.some((p) => p.severity === 'error')) out.hasError = true;
  out.ctx.defaultTtl = sub.ctx.defaultTtl;
  out.ctx.lastTtl = sub.ctx.lastTtl;
}

/**
 * Every entry of a whole text, without incremental bookkeeping (one-shot checks, included
 * files). Lines are tokenised as the parse reaches them and dropped once their entry is parsed,
 * so the tokens of a large file die young instead of being kept for re-checks. Entries are cut
 * as a held document cuts them: an unclosed "(" runs to the end of the text.
 */
export function parseText(
  text: string,
  ctx: Context,
  env: EntryEnv,
  rows: RecordRows,
  options: { fullLexer?: boolean } = {},
): Parsed {
  const out = new EntryBuilder(env, { ...ctx }, rows, []);
  const scanned = emptyScannedEntry();
  // the lines of the entry being gathered, pending[0, pendingCount): one array for the text
  const pending: LineTokens[] = [];
  let pendingCount = 0;
  let first = 0;
  let depth = 0;
  let line = 0;
  let from = 0;
  for (;;) {
    // A plain record is read in place (plain-record.ts); another entry that lexes cleanly is
    // read straight from the text (scanEntry); the others, and the lines of an entry being
    // gathered, line by line.
    if (pendingCount === 0 && options.fullLexer !== true) {
      const next = readPlainRecord(text, from, line, out);
      if (next !== NOT_PLAIN) {
        if (next > text.length) break;
        from = next;
        line += plainEntry.lines;
        continue;
      }
    }
    if (pendingCount === 0 && options.fullLexer !== true && scanEntry(text, from, line, scanned)) {
      if (scanned.tokens.length > 0) {
        out.hasError = false;
        readTokens(scanned.tokens, scanned.leadingBlank, out, scanned.endLine, scanned.endColumn);
      }
      if (scanned.next === -1) break;
      from = scanned.next;
      line += scanned.lines;
      continue;
    }
    const next = text.indexOf('\n', from);
    // as split(/\r?\n/): a CR is dropped only before a line feed
    const end = next === -1 ? text.length : next;
    const cut = next > from && text.charCodeAt(next - 1) === 0x0d ? next - 1 : end;
    const raw = text.slice(from, cut);
    const lt = tokenizeLine(raw);
    if (pendingCount > 0 || lt.tokens.length > 0 || lt.error !== undefined) {
      if (pendingCount === 0) first = line;
      pending[pendingCount++] = lt;
      for (const t of lt.tokens) {
        if (t.kind === 'open') depth++;
        else if (t.kind === 'close') depth = Math.max(0, depth - 1);
      }
      if (depth === 0) {
        readEntry(pending, first, line, first, out);
        pendingCount = 0;
      }
    }
    if (next === -1) break;
    from = next + 1;
    line++;
  }
  if (pendingCount > 0) readEntry(pending, first, line, first, out);
  return out.done();
}

function isClass(text: string): boolean {
  // asked of the one or two tokens after every owner: most are a TTL or a type, told apart by
  // their first letter without making an upper-case copy
  const first = text.charCodeAt(0) | 0x20;
  if (first !== 0x69 && first !== 0x63 && first !== 0x68 && first !== 0x6e && first !== 0x61) {
    return false; // none of i, c, h, n, a
  }
  const upper = upperCase(text);
  return CLASSES.has(upper) || (upper.startsWith('CLASS') && /^CLASS\d+$/.test(upper));
}

/** A record; `endLine` and `endColumn` are where its entry ends (a closing parenthesis). */
function record(
  tokens: PlacedToken[],
  leadingBlank: boolean,
  out: EntryBuilder,
  endLine?: number,
  endColumn?: number,
): void {
  let i = 0;
  let owner: string;
  let ownerKey: string;
  let ownerToken: PlacedToken | undefined;
  if (!leadingBlank) {
    const t = tokens[i++];
    ownerToken = t;
    const parsed = out.ownerName(t.text, out.ctx.origin);
    if (isNameError(parsed)) {
      out.problem(parsed.code, parsed.message, tokenRange(t));
      return;
    }
    owner = parsed.text;
    ownerKey = parsed.key;
    out.ctx.lastOwner = owner;
  } else {
    if (out.ctx.lastOwner === undefined) {
      out.problem('no-owner', 'the first record has no owner name', tokenRange(tokens[0]));
      return;
    }
    owner = out.ctx.lastOwner;
    ownerKey = out.keyOf(owner);
  }
  let ttl: number | undefined;
  let ttlToken: PlacedToken | undefined;
  let klass: PlacedToken | undefined;
  for (let k = 0; k < 2 && i < tokens.length; k++) {
    const t = tokens[i];
    if (ttlToken === undefined && looksLikeTtl(t.text)) {
      ttlToken = t;
      ttl = parseTtl(t.text);
      i++;
    } else if (klass === undefined && isClass(t.text)) {
      klass = t;
      i++;
    } else break;
  }
  const typeToken = tokens[i++];
  if (typeToken === undefined) {
    const lastToken = tokens[tokens.length - 1];
    out.problem('syntax', 'missing record type', tokenRange(lastToken));
    return;
  }
  const code = typeCode(typeToken.text);
  const typeRange = tokenRange(typeToken);
  if (code === undefined) {
    const near = typesNear(typeToken.text);
    const p = out.problem(
      'unknown-type',
      `unknown record type "${typeToken.text}"${near.length > 0 ? `: did you mean ${near.join(' or ')}?` : ''}`,
      typeRange,
    );
    if (near.length > 0)
      p.fix = { title: `Change to ${near[0]}`, range: p.range, replacement: near[0] };
    return;
  }
  const meta = metaTypeFailure(code);
  if (meta !== undefined) {
    out.problem(meta.code, meta.message, typeRange);
    return;
  }
  if (klass !== undefined && className(klass.text) !== 'IN') {
    out.problem('bad-class', `class ${klass.text} is not the zone's class IN`, tokenRange(klass));
    return;
  }
  const type = typeName(code);
  // the record data's tokens are tokens[i, …): indexes in parsed count from there
  const parsed =
    readAddress(code, tokens, i) ??
    readRdata(type, tokens.slice(i), out.ctx.origin, undefined, true);
  const lastToken = tokens[tokens.length - 1];
  if ('code' in parsed) {
    const t = tokens[i + parsed.token] ?? tokens[tokens.length - 1];
    const p = out.problem(parsed.code, `${type}: ${parsed.message}`, tokenRange(t));
    if (parsed.code === 'string-too-long' && (type === 'TXT' || type === 'SPF')) {
      p.fix = {
        title: 'Split into strings of at most 255 octets',
        range: p.range,
        replacement: splitCharString(t.text).join(' '),
      };
    }
    return;
  }
  // after the data, as BIND reports a record's malformed data first
  const ownerRule = wildcardNsFailure(ownerKey, type) ?? nsec3OwnerFailure(ownerKey, type);
  if (ownerRule !== undefined) {
    out.problem(
      ownerRule.code,
      ownerRule.message,
      ownerToken !== undefined ? tokenRange(ownerToken) : typeRange,
    );
    return;
  }
  if (ttl === undefined) {
    ttl = out.ctx.defaultTtl ?? out.ctx.lastTtl;
    if (ttl === undefined) {
      if (type === 'SOA' && parsed.minimum !== undefined) {
        // As BIND loads it: the SOA minimum stands in for the missing $TTL, for this record
        // and every later one without a TTL (not the last TTL given, as RFC 1035 had it).
        ttl = parsed.minimum;
        out.ctx.defaultTtl = ttl;
        out.problem(
          'no-ttl',
          `no TTL given and no $TTL before: the SOA minimum ${ttl} is this record's TTL and that of later records without one`,
          typeRange,
          'warning',
        );
      } else {
        out.problem('no-ttl', 'no TTL given and no $TTL before this record', typeRange);
        return;
      }
    }
  }
  out.ctx.lastTtl = ttl;
  const line = tokens[0].line;
  const start = tokens[0].start;
  if (out.env.apex !== undefined && !isAtOrBelow(ownerKey, out.env.apex)) {
    out.problem(
      'outside-origin',
      `${owner} is outside the zone ${out.env.apex}: servers ignore it`,
      ownerToken !== undefined
        ? tokenRange(ownerToken)
        : { line, start, endLine: endLine ?? lastToken.line, end: endColumn ?? lastToken.end },
      'warning',
    );
    return;
  }
  const { target, serial } = parsed;
  const targetToken =
    target !== undefined && parsed.targetToken !== undefined
      ? tokens[i + parsed.targetToken]
      : undefined;
  // One object handed over for every record (the rows copy what it holds): a zone of a
  // million records made a million of them for the collector.
  const input = rowInput;
  input.owner = owner;
  input.key = ownerKey;
  input.ttl = ttl;
  input.typeCode = code;
  input.data = parsed.data;
  input.wire = parsed.wire;
  input.wireLength = parsed.wireLength;
  input.target = targetToken === undefined ? undefined : target;
  input.file = out.env.fileLabel;
  input.line = line;
  input.start = start;
  input.endLine = endLine ?? lastToken.line;
  input.end = endColumn ?? lastToken.end;
  input.ownerToken = ownerToken;
  input.ttlToken = ttlToken;
  input.typeToken = typeToken;
  input.targetToken = targetToken;
  input.serial = serial;
  input.serialToken = serial === undefined ? undefined : tokens[i + 2];
  out.rows.add(input);
}

const A = TYPES.A.code;
const AAAA = TYPES.AAAA.code;
const address: RdataOctets = { wire: new Uint8Array(16), wireLength: 0, data: undefined };

/**
 * The data of an A or AAAA record, most records of most zones, when it is one address in a
 * form readIPv4 or readIPv6 reads: its octets, straight from the token, with none of the
 * general reader's objects (the same octets: the reader's ipv4 and ipv6 codecs read the token
 * with the same functions). Anything else (the RFC 3597 form, extra tokens, an error) is left
 * to readRdata. The answer is valid until the next record is read.
 */
function readAddress(code: number, tokens: PlacedToken[], at: number): RdataOctets | undefined {
  if (at !== tokens.length - 1 || (code !== A && code !== AAAA)) return undefined;
  const text = tokens[at].text;
  if (code === A) {
    if (!readIPv4(text, address.wire, 0)) return undefined;
    address.wireLength = 4;
  } else {
    if (!readIPv6Octets(text, address.wire, 0)) return undefined;
    address.wireLength = 16;
  }
  return address;
}

/** A record line built by $GENERATE: parsed like any other, placed on the directive. */
function generatedRecord(text: string, at: SourceRange, out: EntryBuilder): boolean {
  // Records of one $GENERATE share its range: the editor shows them all on the directive.
  const lt = tokenizeLine(text);
  const tokens: PlacedToken[] = lt.tokens.map((t) => ({
    ...t,
    line: at.line,
    start: at.start,
    end: at.end,
  }));
  const before = out.problems.length;
  record(tokens, false, out);
  for (const p of out.problems.slice(before)) p.range = at;
  return out.problems.length === before;
}
