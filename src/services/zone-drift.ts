// A zone file compared with what its nameservers serve: apart from zone.ts, because it loads
// the DNS transport and look-ups, which `hostlens zone-check` and the editor's checks never need.
import { fanOutSignal } from '../engine/dns/lookup';
import { compareZone, type DriftResult } from '../engine/zone/drift';
import { fileOptions, readZoneFile, ZoneSession, type ZoneRecord } from './zone';

/** A zone file against its live nameservers (or the one named). */
export async function diffZoneFile(
  file: string,
  options: { origin?: string; server?: string; signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<DriftResult> {
  const text = readZoneFile(file);
  const fileOpts = fileOptions(file, text, options.origin);
  const session = new ZoneSession(text, fileOpts);
  return compareZoneRecords(fileOpts.origin!, session.records(), options);
}

/** Compares records already parsed (an editor's open document) with the live nameservers. */
export function compareZoneRecords(
  apex: string,
  records: ZoneRecord[],
  options: { server?: string; signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<DriftResult> {
  // Every nameserver's questions at once under one signal of this comparison's own.
  return compareZone(apex, records, {
    server: options.server,
    signal: fanOutSignal(options.signal),
    timeoutMs: options.timeoutMs,
  });
}
