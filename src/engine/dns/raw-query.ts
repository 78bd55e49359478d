// SPF macros can build names whose labels hold any printable octet ("foo:bar/baz", spaces,
// "%"): legal on the wire (RFC 2181 section 11) but refused by the host-name checks and by
// c-ares. For those names only, this asks the question itself: one UDP message, no cache.
import { createSocket } from 'node:dgram';
import { promises as dns } from 'node:dns';
import { isIP } from 'node:net';
import * as packet from 'dns-packet';
import { LookupError, throwIfAborted } from '../../contract/errors';
import { fqdn } from '../names';
import type { DnsRecord, QueryResult, RecordType } from '../../contract/shapes';
import { DEFAULT_TIMEOUT_MS, DEFAULT_TRIES, type DnsOptions } from './query';
import { resolveServer } from './server';

/** Whether a name is a legal wire name of printable ASCII (labels 1-63, at most 253). */
export function isWireName(name: string): boolean {
  const body = name.endsWith('.') ? name.slice(0, -1) : name;
  if (body.length === 0 || body.length > 253 || !/^[\x20-\x7e]+$/.test(body)) return false;
  return body.split('.').every((l) => l.length > 0 && l.length <= 63);
}

export async function rawQuery(
  name: string,
  type: RecordType,
  server: string | undefined,
  options: DnsOptions = {},
): Promise<QueryResult> {
  throwIfAborted(options.signal);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const tries = options.tries ?? DEFAULT_TRIES;
  const servers =
    server === undefined || server.trim() === ''
      ? new dns.Resolver().getServers()
      : await resolveServer(server, { signal: options.signal, timeoutMs, lookup: options.lookup });
  const target = servers[0];
  if (target === undefined) throw new LookupError('upstream_error', 'No nameserver is configured');
  const { address, port } = splitServer(target);
  for (let attempt = 1; ; attempt++) {
    try {
      return await exchange(name, type, address, port, timeoutMs, options.signal);
    } catch (err) {
      if (!(err instanceof LookupError) || err.code !== 'upstream_timeout' || attempt >= tries) {
        throw err;
      }
    }
  }
}

/** "1.2.3.4", "1.2.3.4:53", "::1", "[::1]:53" into address and port. */
function splitServer(entry: string): { address: string; port: number } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) return { address: bracketed[1], port: Number(bracketed[2] ?? 53) };
  if (isIP(entry) !== 0) return { address: entry, port: 53 };
  const withPort = /^(.+):(\d+)$/.exec(entry);
  return withPort
    ? { address: withPort[1], port: Number(withPort[2]) }
    : { address: entry, port: 53 };
}

function exchange(
  name: string,
  type: RecordType,
  address: string,
  port: number,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<QueryResult> {
  const id = Math.floor(Math.random() * 65536);
  const message = packet.encode({
    type: 'query',
    id,
    flags: packet.RECURSION_DESIRED,
    questions: [{ type, name, class: 'IN' }],
  });
  const socket = createSocket(isIP(address) === 6 ? 'udp6' : 'udp4');
  return new Promise<QueryResult>((resolve, reject) => {
    const finish = (fn: () => void) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      socket.close();
      fn();
    };
    const onAbort = () =>
      finish(() => reject(new LookupError('cancelled', 'The request was cancelled')));
    const timer = setTimeout(
      () => finish(() => reject(new LookupError('upstream_timeout', `No answer for ${name}`))),
      timeoutMs,
    );
    signal?.addEventListener('abort', onAbort, { once: true });
    socket.on('error', () =>
      finish(() => reject(new LookupError('upstream_error', `The query for ${name} failed`))),
    );
    socket.on('message', (msg: Buffer) => {
      let reply: packet.Packet;
      try {
        reply = packet.decode(msg);
      } catch {
        return;
      }
      if (reply.id !== id) return;
      finish(() => {
        try {
          resolve(toResult(reply, type));
        } catch (err) {
          reject(err instanceof Error ? err : new Error(String(err)));
        }
      });
    });
    socket.send(message, port, address);
  });
}

function toResult(reply: packet.Packet, type: RecordType): QueryResult {
  const rcode = (reply as { rcode?: string }).rcode ?? 'NOERROR';
  if (rcode === 'NXDOMAIN') return { records: [], status: 'NXDOMAIN' };
  if (rcode === 'SERVFAIL') return { records: [], errors: [{ type, code: 'servfail' }] };
  if (rcode === 'REFUSED') return { records: [], errors: [{ type, code: 'refused' }] };
  if (rcode !== 'NOERROR' || ((reply.flags ?? 0) & packet.TRUNCATED_RESPONSE) !== 0) {
    return { records: [], errors: [{ type, code: 'upstream_error' }] };
  }
  const records: DnsRecord[] = [];
  for (const answer of reply.answers ?? []) {
    if (answer.type !== type) continue;
    const data = (answer as { data: unknown }).data;
    const ttl = (answer as { ttl?: number }).ttl;
    const base = ttl !== undefined ? { ttl } : {};
    if (type === 'TXT') {
      const parts = (data as Array<Buffer | string>).map((p) => p.toString());
      records.push({ type, value: parts.join(''), parts, ...base });
    } else if (type === 'MX') {
      const mx = data as { preference: number; exchange: string };
      records.push({ type, value: fqdn(mx.exchange), priority: mx.preference, ...base });
    } else if (type === 'A' || type === 'AAAA') {
      records.push({ type, value: String(data), ...base });
    } else {
      records.push({ type, value: fqdn(String(data)), ...base });
    }
  }
  return { records, status: 'NOERROR' };
}
