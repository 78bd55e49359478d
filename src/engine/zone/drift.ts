// Compare a zone file with what its authoritative nameservers serve: a zone transfer where a
// server allows one (so records that exist only live are found), else one question per owner
// and type of the file, all in parallel. Differences are per server: records only in the file
// (missing), only live (extra), or with other data or TTL (changed); and each server's SOA
// serial, so a stale secondary shows.
import { isIP } from 'node:net';
import { LookupError, throwIfAborted } from '../../contract/errors';
import { isAtOrBelow } from '../dns/names';
import type { CanonicalRecord } from '../dns/rdata/canonical';
import { parseServer, resolveServer } from '../dns/server';
import { askRecords, transferZone, type TcpTarget } from './axfr';
import type { ZoneRecord } from './types';

export type DriftKind = 'missing' | 'extra' | 'changed';

export interface DriftEntry {
  name: string;
  type: string;
  kind: DriftKind;
  /** "TTL data" as the file has it, or null */
  file: string | null;
  /** "TTL data" as the server serves it, or null */
  live: string | null;
  /** additive: the server that differs */
  server: string;
  /** additive: where the file's record is (1-based line, as zone-check and editors count) */
  line?: number;
  /** additive: the 1-based column the record starts at, beside `line` */
  column?: number;
}

export interface ServerSerial {
  server: string;
  serial: number | null;
  /** additive: how the server was read ("axfr" or "query"), or why it could not be */
  method?: 'axfr' | 'query';
  error?: string;
}

export interface DriftResult {
  drift: DriftEntry[];
  serials: ServerSerial[];
}

export interface DriftOptions {
  /** a server to ask instead of the file's apex NS: address[:port] or host name */
  server?: string;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** questions in flight at once per server in question mode */
  concurrency?: number;
}

/** A served record: canonical wire form (hex, as the parser gives a file's records) and text. */
interface LiveRecord {
  key: string;
  type: string;
  ttl: number;
  wire: string;
  data: string;
}

export async function compareZone(
  apex: string,
  records: ZoneRecord[],
  options: DriftOptions = {},
): Promise<DriftResult> {
  throwIfAborted(options.signal);
  const zone = apex.toLowerCase();
  const servers = await nameservers(zone, records, options);
  const perServer = await Promise.all(servers.map((s) => compareWith(zone, records, s, options)));
  return {
    drift: perServer.flatMap((r) => r.drift),
    serials: perServer.map((r) => r.serial),
  };
}

interface Server {
  label: string;
  target: TcpTarget;
}

/** The servers to ask: the one named, or every apex NS of the file (addresses from the file's glue first). */
async function nameservers(
  zone: string,
  records: ZoneRecord[],
  options: DriftOptions,
): Promise<Server[]> {
  const names =
    options.server !== undefined
      ? [options.server]
      : records.filter((r) => r.key === zone && r.type === 'NS').map((r) => r.data);
  if (names.length === 0)
    throw new LookupError(
      'invalid_argument',
      `the file has no NS records at ${zone}: name a server`,
    );
  const out: Server[] = [];
  for (const name of names) {
    const parsed = parseServer(name.replace(/\.$/, ''));
    if (parsed.family !== 0) {
      out.push({ label: name, target: { address: parsed.address, port: parsed.port } });
      continue;
    }
    const glue = records.filter(
      (r) => r.key === `${parsed.address}.` && (r.type === 'A' || r.type === 'AAAA'),
    );
    const addresses =
      glue.length > 0
        ? glue.map((r) => r.data)
        : (
            await resolveServer(name.replace(/\.$/, ''), {
              signal: options.signal,
              timeoutMs: options.timeoutMs ?? 5000,
            })
          ).map((s) => parseServer(s).address);
    const address = addresses.find((a) => isIP(a) === 4) ?? addresses[0];
    if (address === undefined) throw new LookupError('invalid_server', `no address for ${name}`);
    out.push({ label: name, target: { address, port: parsed.port } });
  }
  return out;
}

async function compareWith(
  zone: string,
  records: ZoneRecord[],
  server: Server,
  options: DriftOptions,
): Promise<{ drift: DriftEntry[]; serial: ServerSerial }> {
  const tcp = { timeoutMs: options.timeoutMs ?? 5000, signal: options.signal };
  let live: LiveRecord[];
  let method: 'axfr' | 'query' = 'axfr';
  let fileSide = records;
  try {
    live = (await transferZone(zone, server.target, tcp)).map(fromWire);
  } catch (err) {
    if (err instanceof LookupError && err.code === 'cancelled') throw err;
    method = 'query';
    // Without a transfer only authoritative data can be asked for: a delegation's NS and the
    // names below it are answered as referrals, not as answers.
    fileSide = authoritative(zone, records);
    try {
      live = await askEach(fileSide, server, options);
    } catch (inner) {
      if (inner instanceof LookupError && inner.code === 'cancelled') throw inner;
      return {
        drift: [],
        serial: { server: server.label, serial: null, error: (inner as Error).message },
      };
    }
  }
  const soa = live.find((r) => r.key === zone && r.type === 'SOA');
  const serial = soa === undefined ? null : Number(soa.data.split(' ')[2]);
  return {
    drift: diff(fileSide, live, server.label),
    serial: { server: server.label, serial, method },
  };
}

function fromWire(r: CanonicalRecord): LiveRecord {
  return { key: r.key, type: r.type, ttl: r.ttl, wire: r.wire.toString('hex'), data: r.data };
}

function authoritative(zone: string, records: ZoneRecord[]): ZoneRecord[] {
  const cuts = new Set(records.filter((r) => r.type === 'NS' && r.key !== zone).map((r) => r.key));
  return records.filter((r) => {
    if (cuts.has(r.key)) return r.type === 'DS';
    for (const cut of cuts) if (isAtOrBelow(r.key, cut)) return false;
    return true;
  });
}

/** One question per owner and type of the file, a few at a time. */
async function askEach(
  records: ZoneRecord[],
  server: Server,
  options: DriftOptions,
): Promise<LiveRecord[]> {
  const questions = new Map<string, { key: string; typeCode: number }>();
  for (const r of records) questions.set(`${r.key} ${r.typeCode}`, r);
  const queue = [...questions.values()];
  const out: LiveRecord[] = [];
  let next = 0;
  const width = options.concurrency ?? 8;
  const tcp = { signal: options.signal, timeoutMs: options.timeoutMs ?? 3000 };
  await Promise.all(
    Array.from({ length: Math.min(width, queue.length) }, async () => {
      while (next < queue.length) {
        const { key, typeCode } = queue[next++];
        for (const record of await askRecords(key, typeCode, server.target, tcp)) {
          out.push(fromWire(record));
        }
      }
    }),
  );
  return out;
}

function diff(file: ZoneRecord[], live: LiveRecord[], server: string): DriftEntry[] {
  const sets = new Map<string, { file: ZoneRecord[]; live: LiveRecord[] }>();
  const slot = (key: string, type: string) => {
    const id = `${key} ${type}`;
    let s = sets.get(id);
    if (s === undefined) sets.set(id, (s = { file: [], live: [] }));
    return s;
  };
  const seen = new Set<string>();
  for (const r of file) {
    // A duplicate in the file is one record once loaded.
    const id = `${r.key} ${r.type} ${r.wire}`;
    if (seen.has(id)) continue;
    seen.add(id);
    slot(r.key, r.type).file.push(r);
  }
  for (const r of live) slot(r.key, r.type).live.push(r);
  const out: DriftEntry[] = [];
  for (const { file: f, live: l } of sets.values()) {
    const missing = f.filter((r) => !l.some((x) => x.wire === r.wire));
    const extra = l.filter((x) => !f.some((r) => r.wire === x.wire));
    for (const r of f) {
      const twin = l.find((x) => x.wire === r.wire);
      if (twin !== undefined && twin.ttl !== r.ttl) {
        out.push(entry(r, twin, 'changed', server));
      }
    }
    const paired = Math.min(missing.length, extra.length);
    for (let i = 0; i < paired; i++) out.push(entry(missing[i], extra[i], 'changed', server));
    for (const r of missing.slice(paired)) out.push(entry(r, undefined, 'missing', server));
    for (const x of extra.slice(paired)) out.push(entry(undefined, x, 'extra', server));
  }
  return out.sort(
    (a, b) =>
      (a.line ?? Infinity) - (b.line ?? Infinity) ||
      a.name.localeCompare(b.name) ||
      a.type.localeCompare(b.type),
  );
}

function entry(
  file: ZoneRecord | undefined,
  live: LiveRecord | undefined,
  kind: DriftKind,
  server: string,
): DriftEntry {
  const name = file?.owner ?? live!.key;
  const e: DriftEntry = {
    name,
    type: file?.type ?? live!.type,
    kind,
    file: file === undefined ? null : `${file.ttl} ${file.data}`,
    live: live === undefined ? null : `${live.ttl} ${live.data}`,
    server,
  };
  if (file !== undefined && file.file === undefined) {
    e.line = file.range.line + 1;
    e.column = file.range.start + 1;
  }
  return e;
}
