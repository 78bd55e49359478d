// Good results between runs: a link that answered 200, a host that resolves and is registered.
// Failures are never stored, so they are always checked again. One JSON file (the CLI's
// --cache FILE, the editor's storage), read at the start and written once at the end.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

export const DEFAULT_CACHE_TTL_MS = 24 * 60 * 60 * 1000;
const VERSION = 1;

interface Entry {
  /** when the result was obtained (ms since the epoch) */
  at: number;
  value: unknown;
}

export class ResultCache {
  private entries = new Map<string, Entry>();
  private dirty = false;
  /**
   * Whether results are kept at all: only with a file to keep them in. A run asks about each
   * URL, host and domain once anyway, so without a file the cache would only cost time.
   */
  readonly kept: boolean;

  constructor(
    private readonly file: string | undefined,
    private readonly ttlMs = DEFAULT_CACHE_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {
    this.kept = file !== undefined;
  }

  /** Reads the file; a missing or unreadable one is an empty cache (it is only a cache). */
  async load(): Promise<void> {
    if (this.file === undefined) return;
    try {
      const data = JSON.parse(await readFile(this.file, 'utf8')) as {
        version?: number;
        entries?: Record<string, Entry>;
      };
      if (data.version !== VERSION || typeof data.entries !== 'object') return;
      const oldest = this.now() - this.ttlMs;
      for (const [key, entry] of Object.entries(data.entries ?? {})) {
        if (typeof entry?.at === 'number' && entry.at > oldest) this.entries.set(key, entry);
      }
    } catch {
      this.entries.clear();
    }
  }

  get<T>(key: string): T | undefined {
    if (!this.kept) return undefined;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.at <= this.now() - this.ttlMs) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value as T;
  }

  /** Stores a good result. */
  set(key: string, value: unknown): void {
    if (!this.kept) return;
    this.entries.set(key, { at: this.now(), value });
    this.dirty = true;
  }

  /** A result that is no longer good. */
  delete(key: string): void {
    if (this.entries.delete(key)) this.dirty = true;
  }

  /** Writes the file (through a temporary one, so a crash never leaves half a file). */
  async save(): Promise<void> {
    if (this.file === undefined || !this.dirty) return;
    const data = { version: VERSION, entries: Object.fromEntries(this.entries) };
    await mkdir(dirname(this.file), { recursive: true });
    const temporary = `${this.file}.${process.pid}.tmp`;
    await writeFile(temporary, JSON.stringify(data));
    await rename(temporary, this.file);
    this.dirty = false;
  }
}
