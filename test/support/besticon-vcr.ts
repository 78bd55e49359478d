// Reads mat/besticon's recorded HTTP sessions (../shared/corpus/icons/besticon/testdata/*.vcr,
// gzip; each record is a raw request, a raw response and a separator line) so a loopback
// server can replay them by Host and request target.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { startReplayServer, type ReplayServer } from './web-replay';

export const BESTICON_ROOT = resolve(__dirname, '../../../shared/corpus/icons/besticon');

export interface VcrRecord {
  host: string;
  target: string;
  status: number;
  headers: Array<[string, string]>;
  body: Buffer;
}

export interface BesticonExpectations {
  fetch_icons: Array<{ url: string; icons: Array<{ url: string; width: number; format: string }> }>;
}

const SEPARATOR = Buffer.from('*************vcr*************');
const CRLF2 = Buffer.from('\r\n\r\n');

export function besticonPresent(): boolean {
  return existsSync(join(BESTICON_ROOT, 'expectations.json'));
}

export function loadExpectations(): BesticonExpectations {
  return JSON.parse(
    readFileSync(join(BESTICON_ROOT, 'expectations.json'), 'utf8'),
  ) as BesticonExpectations;
}

/** The recording for a start URL: the host, plus `_port` when the URL names one. */
export function vcrFileFor(url: string): string {
  const match = /^[a-z]+:\/\/([^/:]+)(?::(\d+))?/i.exec(url);
  return join(
    BESTICON_ROOT,
    'testdata',
    `${match?.[1] ?? ''}${match?.[2] ? `_${match[2]}` : ''}.vcr`,
  );
}

/** Host without a default port, lower case: how both sides key a request. */
export function hostKey(host: string): string {
  return host.toLowerCase().replace(/:(80|443)$/, '');
}

export function loadVcr(file: string): VcrRecord[] {
  const data = gunzipSync(readFileSync(file));
  const records: VcrRecord[] = [];
  let start = 0;
  while (start < data.length) {
    let end = data.indexOf(SEPARATOR, start);
    if (end < 0) end = data.length;
    const record = parseRecord(data.subarray(start, end));
    if (record) records.push(record);
    start = end + SEPARATOR.length;
    if (data[start] === 0x0a) start += 1;
  }
  return records;
}

function parseRecord(raw: Buffer): VcrRecord | undefined {
  const requestEnd = raw.indexOf(CRLF2);
  if (requestEnd < 0) return undefined;
  const requestLines = raw.subarray(0, requestEnd).toString('latin1').split('\r\n');
  const [, target = '/'] = requestLines[0].split(' ');
  const host =
    requestLines
      .find((l) => /^host:/i.test(l))
      ?.slice(5)
      .trim() ?? '';
  const responseStart = requestEnd + 4;
  const responseEnd = raw.indexOf(CRLF2, responseStart);
  if (responseEnd < 0) return undefined;
  const responseLines = raw.subarray(responseStart, responseEnd).toString('latin1').split('\r\n');
  const status = Number(responseLines[0].split(' ')[1]);
  const headers = responseLines.slice(1).map((line): [string, string] => {
    const colon = line.indexOf(':');
    return [line.slice(0, colon).trim(), line.slice(colon + 1).trim()];
  });
  let body = raw.subarray(responseEnd + 4);
  const length = headers.find(([name]) => name.toLowerCase() === 'content-length');
  if (length && Number(length[1]) <= body.length) body = body.subarray(0, Number(length[1]));
  return { host: hostKey(host), target, status, headers, body };
}

export interface VcrReplay extends ReplayServer {
  /** answer from these records from now on (a target recorded twice is answered in order) */
  load(records: VcrRecord[]): void;
}

/** A loopback server that replays recorded sessions (404 for anything not recorded). */
export async function startVcrReplay(): Promise<VcrReplay> {
  let queues = new Map<string, VcrRecord[]>();
  const server = await startReplayServer((host, target, _req, res) => {
    const queue = queues.get(`${hostKey(host)}${target}`);
    const record = queue && queue.length > 1 ? queue.shift()! : queue?.[0];
    if (!record) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not recorded');
      return;
    }
    const headers = record.headers.filter(
      ([n]) => !/^(content-length|transfer-encoding|connection|content-encoding)$/i.test(n),
    );
    res.writeHead(record.status, [...headers.flat(), 'content-length', String(record.body.length)]);
    res.end(record.body);
  });
  return {
    ...server,
    load(records) {
      queues = new Map();
      for (const r of records) {
        const key = `${r.host}${r.target}`;
        queues.set(key, [...(queues.get(key) ?? []), r]);
      }
    },
  };
}
