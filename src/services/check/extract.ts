// What a check looks at in one file: every http(s) URL, mailto: address and host name detect/
// finds, Markdown and HTML links to other files of the workspace (and their #anchors), and in
// a zone file the names its CNAME, MX, NS and SRV records point at outside the zone.
import { dirname, extname, resolve } from 'node:path';
import { detectInLine, isZoneFileNameCandidate, looksLikeZoneFile } from '../../detect/index';
import { guessOrigin, loadZone } from '../../engine/zone/index';
import { codeFenceReader } from './fences';

export type Target =
  | { kind: 'url'; url: string }
  | { kind: 'mailto'; domain: string }
  /** a host name written on its own, outside a URL (lower case, no trailing dot) */
  | { kind: 'host'; name: string }
  /** a file of the workspace (absolute path), with the anchor asked for */
  | { kind: 'local'; path: string; fragment?: string }
  /** a zone record's target name (lower case, no trailing dot) */
  | { kind: 'record'; name: string; recordType: string };

export interface Occurrence {
  /** absolute path of the file the target is written in */
  file: string;
  /** 0-based line and UTF-16 column, as detect/ counts */
  line: number;
  column: number;
  /** as written */
  text: string;
  target: Target;
}

/** VS Code language ids by extension, for detect/'s "code looks only in strings" rule. */
const LANGUAGES: Record<string, string> = {
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.mdx': 'markdown',
  '.html': 'html',
  '.htm': 'html',
  '.js': 'javascript',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
  '.ts': 'typescript',
  '.tsx': 'typescriptreact',
  '.jsx': 'javascriptreact',
  '.py': 'python',
  '.rb': 'ruby',
  '.go': 'go',
  '.rs': 'rust',
  '.java': 'java',
  '.c': 'c',
  '.h': 'c',
  '.cpp': 'cpp',
  '.cs': 'csharp',
  '.php': 'php',
  '.tf': 'terraform',
  '.hcl': 'hcl',
  '.lua': 'lua',
  '.sql': 'sql',
};

export function languageOf(file: string): string | undefined {
  return LANGUAGES[extname(file).toLowerCase()];
}

/** Zone record types whose target must exist outside the zone (RFC 1034, 2782, 7505). */
const TARGET_TYPES = new Set(['CNAME', 'MX', 'NS', 'SRV']);

export function extractTargets(file: string, text: string): Occurrence[] {
  const found: Occurrence[] = [];
  for (const line of targetsByLine(file, text)) found.push(...line);
  return found;
}

/**
 * The targets of a file a line at a time (a zone file's all at once), so that a check can
 * start on the first links while it reads the rest. A line without targets gives an empty list.
 */
export function* targetsByLine(file: string, text: string): Generator<readonly Occurrence[], void> {
  const base = file.split(/[\\/]/).pop() ?? file;
  if (isZoneFileNameCandidate(base) && looksLikeZoneFile(text)) {
    const zone = zoneTargets(file, text);
    if (zone) {
      yield zone;
      return;
    }
  }
  yield* textTargets(file, text, languageOf(file));
}

function zoneTargets(file: string, text: string): Occurrence[] | undefined {
  const origin = guessOrigin(text, file);
  if (origin === undefined) return undefined;
  const apex = origin.toLowerCase().replace(/\.$/, '');
  const { records } = loadZone(text, { origin, file });
  const found: Occurrence[] = [];
  for (const record of records) {
    if (!TARGET_TYPES.has(record.type) || record.target === undefined) continue;
    if (record.file !== undefined && record.file !== file) continue; // an $INCLUDEd file's own
    const name = record.target.replace(/\.$/, '');
    // "." is a null MX (RFC 7505) or "no service" SRV (RFC 2782): nothing to resolve.
    if (name === '' || name === apex || name.endsWith(`.${apex}`)) continue;
    const range = record.targetRange ?? record.range;
    found.push({
      file,
      line: range.line,
      column: range.start,
      text: text.split('\n')[range.line]?.slice(range.start, range.end) ?? name,
      target: { kind: 'record', name, recordType: record.type },
    });
  }
  return found;
}

// Markdown inline links and images, reference definitions, and HTML href/src attributes: the
// places a path to another file is written. Absolute URLs come from detect/ instead.
const MARKDOWN_LINK = /\]\(\s*<?([^)\s>]+)>?(?:\s+["'(][^)]*)?\)/g;
const MARKDOWN_DEFINITION = /^\s{0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?/;
const HTML_LINK = /\b(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)')/gi;

const NO_TARGETS: readonly Occurrence[] = [];

function* textTargets(
  file: string,
  text: string,
  languageId: string | undefined,
): Generator<readonly Occurrence[], void> {
  const markdown = languageId === 'markdown';
  const markup = markdown || languageId === 'html';
  const context = languageId ? { languageId } : {};
  const lines = text.split(/\r?\n/);
  const inCode = codeFenceReader();
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n];
    const found: Occurrence[] = [];
    // Links in a fenced code block are examples, not links (as a Markdown renderer shows them).
    if (markdown && inCode(line)) {
      yield NO_TARGETS;
      continue;
    }
    const items = detectInLine(line, context);
    // the hosts of the line's URLs, asked for only when the line has a host name on its own
    let urlHosts: Set<string | undefined> | undefined;
    for (const item of items) {
      if (item.kind === 'url') {
        found.push(at(file, n, item.start, item.text, { kind: 'url', url: item.text }));
      } else if (item.kind === 'email' && /mailto:$/i.test(line.slice(0, item.start))) {
        found.push(at(file, n, item.start - 7, `mailto:${item.text}`, mailto(item.value)));
      } else if (item.kind === 'hostname' && !item.value.startsWith('*.')) {
        urlHosts ??= new Set(items.filter((i) => i.kind === 'url').map((i) => hostOf(i.text)));
        // "[example.org](https://example.org/)": the URL's own check speaks for the name
        if (!urlHosts.has(item.value)) {
          found.push(at(file, n, item.start, item.text, { kind: 'host', name: item.value }));
        }
      }
    }
    if (markup) relativeLinks(found, file, line, n, markdown);
    // Every line, with targets or none: the reader may stop between any two (a long file
    // with few links is not read in one go).
    yield found;
  }
}

/** Adds the line's links to files of the workspace to `found`. */
function relativeLinks(
  found: Occurrence[],
  file: string,
  line: string,
  n: number,
  markdown: boolean,
): void {
  // Each pattern is tried only on a line with the characters it cannot match without, and
  // searched with exec() on its one object (matchAll would copy it for each line).
  let m: RegExpExecArray | null;
  if (markdown && line.includes('](')) {
    MARKDOWN_LINK.lastIndex = 0;
    while ((m = MARKDOWN_LINK.exec(line))) {
      addLocal(found, file, n, m[1], m.index + m[0].indexOf(m[1]));
    }
  }
  if (markdown && line.includes(']:')) {
    const def = MARKDOWN_DEFINITION.exec(line);
    if (def) addLocal(found, file, n, def[1], def.index + def[0].indexOf(def[1]));
  }
  if (line.includes('=')) {
    HTML_LINK.lastIndex = 0;
    while ((m = HTML_LINK.exec(line))) {
      const dest = m[1] ?? m[2];
      addLocal(found, file, n, dest, m.index + m[0].indexOf(dest));
    }
  }
}

/** Adds `dest`, written at column `index` of line `n`, when it names a file of the workspace. */
function addLocal(found: Occurrence[], file: string, n: number, dest: string, index: number): void {
  const target = localTarget(file, dest);
  if (target) found.push(at(file, n, index, dest, target));
}

/** A link without a scheme or authority is a path in the workspace (or an anchor in this file). */
function localTarget(file: string, dest: string): Target | undefined {
  if (dest === '' || /^[a-z][a-z0-9+.-]*:/i.test(dest) || dest.startsWith('//')) return undefined;
  // Site-absolute paths depend on where the site is served from: not checkable from files.
  if (dest.startsWith('/')) return undefined;
  const hash = dest.indexOf('#');
  const pathPart = (hash < 0 ? dest : dest.slice(0, hash)).replace(/\?.*$/, '');
  const fragment = hash < 0 ? undefined : dest.slice(hash + 1);
  let path = file;
  if (pathPart !== '') {
    let decoded = pathPart;
    try {
      decoded = decodeURIComponent(pathPart);
    } catch {
      // a stray % is read as written
    }
    path = resolve(dirname(file), decoded);
  }
  return fragment === undefined ? { kind: 'local', path } : { kind: 'local', path, fragment };
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

function mailto(domain: string): Target {
  return { kind: 'mailto', domain };
}

function at(file: string, line: number, column: number, text: string, target: Target): Occurrence {
  return { file, line, column, text, target };
}
