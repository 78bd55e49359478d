// Which files a check reads: the paths given (files as they are, directories walked), minus
// what .gitignore files on the way and the exclude globs leave out. Globs use .gitignore's
// syntax (the `ignore` package), so one rule reads the same in both places.
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { LookupError } from '../../contract/errors';

/** Larger files are generated or binary: not read. */
export const MAX_FILE_BYTES = 4 * 1024 * 1024;

/** Never walked: version-control internals. */
const ALWAYS_SKIPPED = new Set(['.git', '.hg', '.svn']);

interface Rules {
  /** the directory the rules' paths are relative to */
  base: string;
  rules: Ignore;
}

/**
 * The files under `paths` (relative to `cwd`), sorted, each an absolute path. A path that does
 * not exist is an invalid_argument error; a file named directly is read even when ignored.
 */
export async function listFiles(
  paths: readonly string[],
  options: { cwd: string; exclude?: readonly string[] },
): Promise<string[]> {
  const excludes = ignore().add([...(options.exclude ?? [])]);
  const found: string[] = [];
  for (const given of paths.length > 0 ? paths : ['.']) {
    const full = resolve(options.cwd, given);
    let info;
    try {
      info = await stat(full);
    } catch {
      throw new LookupError('invalid_argument', `${given}: no such file or directory`);
    }
    if (info.isFile()) found.push(full);
    else if (info.isDirectory()) {
      const inherited = await gitignoresAbove(full, options.cwd);
      await walk(full, inherited, (file) => {
        const rel = toPosix(relative(options.cwd, file));
        if (!isOutside(rel) && excludes.ignores(rel)) return;
        found.push(file);
      });
    }
  }
  return [...new Set(found)].sort();
}

/** Reads a file as text, or undefined when it is too large or looks binary. */
export async function readText(file: string): Promise<string | undefined> {
  const info = await stat(file);
  if (info.size > MAX_FILE_BYTES) return undefined;
  const bytes = await readFile(file);
  if (bytes.subarray(0, 8000).includes(0)) return undefined;
  return bytes.toString('utf8');
}

async function walk(dir: string, rules: Rules[], onFile: (file: string) => void): Promise<void> {
  const own = await readGitignore(dir);
  const active = own ? [...rules, own] : rules;
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return; // unreadable directory: nothing in it can be checked
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (ALWAYS_SKIPPED.has(entry.name)) continue;
    const full = join(dir, entry.name);
    const isDir = entry.isDirectory();
    if (!isDir && !entry.isFile()) continue;
    if (ignoredBy(active, full, isDir)) continue;
    if (isDir) await walk(full, active, onFile);
    else onFile(full);
  }
}

function ignoredBy(rules: Rules[], full: string, isDir: boolean): boolean {
  return rules.some((r) => {
    const rel = toPosix(relative(r.base, full));
    return rel !== '' && !isOutside(rel) && r.rules.ignores(isDir ? `${rel}/` : rel);
  });
}

/** The .gitignore files between the check's directory and a starting directory below it. */
async function gitignoresAbove(start: string, cwd: string): Promise<Rules[]> {
  const rules: Rules[] = [];
  const rel = relative(cwd, start);
  if (isOutside(toPosix(rel))) return rules;
  let dir = resolve(cwd);
  const parts = rel === '' ? [] : rel.split(sep);
  for (let i = 0; i < parts.length; i++) {
    const r = await readGitignore(dir);
    if (r) rules.push(r);
    dir = join(dir, parts[i]);
  }
  return rules;
}

async function readGitignore(dir: string): Promise<Rules | undefined> {
  try {
    const text = await readFile(join(dir, '.gitignore'), 'utf8');
    return { base: dir, rules: ignore().add(text) };
  } catch {
    return undefined;
  }
}

function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}

function isOutside(rel: string): boolean {
  return rel === '..' || rel.startsWith('../') || rel.startsWith('/');
}
