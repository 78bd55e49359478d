// $INCLUDEs for the editor, read ahead asynchronously: the zone parser asks for an included
// file synchronously, in the middle of a parse, and in the extension host a blocking read there
// would stall every extension while a slow disk or network share answered. IncludeCache reads
// the files a zone names (and those they name) with non-blocking I/O under the same rules as
// readIncludeFromDisk (regular files only, MAX_INCLUDE_BYTES each, MAX_INCLUDE_DEPTH deep),
// then hands them to the parser from memory. A file not read yet is a problem of the parse and
// a request to read it; the editor parses again once it is in.
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { MAX_INCLUDE_BYTES } from './zone';

/** As deep as the parser follows includes of includes. */
export const MAX_INCLUDE_DEPTH = 8;

/** Distinct files one zone may include, all levels together. */
export const MAX_INCLUDED_FILES = 256;

type Entry = { path: string; text: string } | { error: string };

/** The names $INCLUDE directives of a text give (file names as written, quotes removed). */
export function includedNames(text: string): string[] {
  const names: string[] = [];
  for (const m of text.matchAll(/^\$INCLUDE[ \t]+(?:"([^"\r\n]*)"|([^\s;]+))/gim)) {
    names.push(m[1] ?? m[2]);
  }
  return names;
}

/** The path an include names, relative to the including file (as readIncludeFromDisk). */
function fullPath(path: string, from: string | undefined): string {
  return resolve(from === undefined ? process.cwd() : dirname(from), path);
}

/** Reads one include without blocking: a regular file of at most MAX_INCLUDE_BYTES. */
export async function readIncludeAsync(full: string): Promise<{ path: string; text: string }> {
  // O_NONBLOCK: opening a FIFO does not wait for a writer.
  const handle = await open(full, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new Error('not a regular file');
    if (info.size > MAX_INCLUDE_BYTES) {
      throw new Error(`larger than ${MAX_INCLUDE_BYTES / 1024 / 1024} MB`);
    }
    return { path: full, text: await handle.readFile('utf8') };
  } finally {
    await handle.close();
  }
}

export class IncludeCache {
  private readonly files = new Map<string, Entry>();
  private missed = false;

  /** The parser's readInclude: from memory, never from disk. */
  readonly readInclude = (path: string, from: string | undefined) => {
    const entry = this.files.get(fullPath(path, from));
    if (entry === undefined) {
      this.missed = true;
      throw new Error('still being read');
    }
    if ('error' in entry) throw new Error(entry.error);
    return entry;
  };

  /** Whether a parse since the last call asked for a file not read yet (and clears it). */
  takeMissed(): boolean {
    const missed = this.missed;
    this.missed = false;
    return missed;
  }

  /** Whether every include the text names (at its first level) has been read. */
  hasAll(text: string, file: string): boolean {
    return includedNames(text).every((name) => this.files.has(fullPath(name, file)));
  }

  /**
   * Reads what the text includes, and what those include, that is not read yet. Files read
   * before are kept (an editor re-reads them by opening the document again).
   */
  async prefetch(text: string, file: string): Promise<void> {
    let level: Array<{ text: string; from: string }> = [{ text, from: file }];
    for (let depth = 0; depth < MAX_INCLUDE_DEPTH && level.length > 0; depth++) {
      const wanted = new Set<string>();
      for (const { text: t, from } of level) {
        for (const name of includedNames(t)) wanted.add(fullPath(name, from));
      }
      const next: Array<{ text: string; from: string }> = [];
      await Promise.all(
        [...wanted].map(async (full) => {
          if (this.files.has(full)) return;
          if (this.files.size >= MAX_INCLUDED_FILES) {
            this.files.set(full, { error: `more than ${MAX_INCLUDED_FILES} included files` });
            return;
          }
          try {
            const read = await readIncludeAsync(full);
            this.files.set(full, read);
            next.push({ text: read.text, from: full });
          } catch (err) {
            this.files.set(full, { error: (err as Error).message });
          }
        }),
      );
      level = next;
    }
  }
}
