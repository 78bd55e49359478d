// The look-ups shown in the results view, newest first, kept in globalState so they survive
// a reload. Each entry stores its answer so the tree can be drawn without asking again.
import type * as vscode from 'vscode';
import type { MailSetup } from '../../services/mail';
import type { QueryResult, TlsResult } from '../../contract/shapes';
import type { DriftResult } from '../../services/zone';

export interface ErrorSummary {
  code: string;
  message: string;
}

export interface DnsLookupEntry {
  kind: 'dns';
  host: string;
  types?: string[];
  server?: string;
  at: number;
  result?: QueryResult;
  error?: ErrorSummary;
}

/**
 * A host's mail authentication. "Check Mail Set-up" fills every part; "Show SPF Tree" and
 * "Find DKIM Keys" replace just their own part of the entry.
 */
export interface MailEntry {
  kind: 'mail';
  host: string;
  server?: string;
  at: number;
  setup?: Partial<Omit<MailSetup, 'host'>>;
  error?: ErrorSummary;
}

/** "Compare Zone with Live DNS": a zone file against its nameservers (or the one named). */
export interface ZoneDriftEntry {
  kind: 'zone-drift';
  /** the zone's apex, without the final dot, like the other entries' hosts */
  host: string;
  server?: string;
  at: number;
  /** the file compared, as the editor names it */
  file: string;
  /** the SOA serial of the file, to tell a stale server */
  fileSerial?: number;
  result: DriftResult;
}

/** "Show TLS Certificate": one endpoint's handshake, chain and problems. */
export interface TlsEntry {
  kind: 'tls';
  host: string;
  /** 443 unless the user named another port */
  port?: number;
  server?: string;
  at: number;
  result?: TlsResult;
  error?: ErrorSummary;
}

export type HistoryEntry = DnsLookupEntry | MailEntry | ZoneDriftEntry | TlsEntry;

const STORAGE_KEY = 'hostlens.history.v1';

export class History {
  private entries: HistoryEntry[];

  constructor(
    private readonly memento: vscode.Memento,
    private readonly maxEntries: () => number,
  ) {
    const stored = memento.get<HistoryEntry[]>(STORAGE_KEY, []);
    this.entries = Array.isArray(stored) ? stored.filter(isEntry) : [];
  }

  all(): readonly HistoryEntry[] {
    return this.entries;
  }

  find<K extends HistoryEntry['kind']>(
    kind: K,
    host: string,
    server: string | undefined,
  ): Extract<HistoryEntry, { kind: K }> | undefined {
    return this.entries.find(
      (e): e is Extract<HistoryEntry, { kind: K }> =>
        e.kind === kind && e.host === host && e.server === server,
    );
  }

  /** Adds or replaces the entry for the same look-up and moves it to the top. */
  async put(entry: HistoryEntry): Promise<void> {
    this.entries = [entry, ...this.entries.filter((e) => !sameLookup(e, entry))].slice(
      0,
      this.maxEntries(),
    );
    await this.memento.update(STORAGE_KEY, this.entries);
  }

  async remove(entry: HistoryEntry): Promise<void> {
    this.entries = this.entries.filter((e) => !sameLookup(e, entry));
    await this.memento.update(STORAGE_KEY, this.entries);
  }

  async clear(): Promise<void> {
    this.entries = [];
    await this.memento.update(STORAGE_KEY, []);
  }
}

function sameLookup(a: HistoryEntry, b: HistoryEntry): boolean {
  return a.kind === b.kind && a.host === b.host && a.server === b.server;
}

function isEntry(value: unknown): value is HistoryEntry {
  const e = value as Partial<HistoryEntry> | undefined;
  return (
    typeof e === 'object' &&
    e !== null &&
    (e.kind === 'dns' || e.kind === 'mail' || e.kind === 'zone-drift' || e.kind === 'tls') &&
    typeof e.host === 'string'
  );
}
