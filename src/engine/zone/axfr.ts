// DNS over TCP for the drift comparison (RFC 1035 section 4.2.2, RFC 7766): a zone transfer
// (AXFR, RFC 5936) and single questions for the record types the engine's query function
// does not cover. Kept here, apart from the engine's transport, and small: one connection
// per call, a deadline, cancellation.
import { connect } from 'node:net';
import * as packet from 'dns-packet';
import { LookupError } from '../../contract/errors';
import { parseMessage, WireError, type WireRecord } from './wire';

export interface TcpTarget {
  address: string;
  port: number;
}

export interface TcpOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
}

const RCODES = ['NOERROR', 'FORMERR', 'SERVFAIL', 'NXDOMAIN', 'NOTIMP', 'REFUSED'];

/**
 * Sends one query and hands each framed reply to `onMessage` until it returns true (done).
 * Rejects with a LookupError: upstream_timeout, upstream_error (connection, REFUSED...), cancelled.
 */
function exchange(
  target: TcpTarget,
  name: string,
  type: string,
  options: TcpOptions,
  onMessage: (records: WireRecord[], rcode: number) => boolean,
): Promise<void> {
  const id = Math.floor(Math.random() * 65536);
  const query = packet.encode({
    type: 'query',
    id,
    flags: 0,
    questions: [{ type: type as packet.RecordType, name, class: 'IN' }],
  });
  const framed = Buffer.alloc(query.length + 2);
  framed.writeUInt16BE(query.length, 0);
  query.copy(framed, 2);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: target.address, port: target.port });
    let buffered = Buffer.alloc(0);
    let settled = false;
    const finish = (err?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      socket.destroy();
      if (err) reject(err);
      else resolve();
    };
    const onAbort = () => finish(new LookupError('cancelled', 'The request was cancelled'));
    const timer = setTimeout(
      () =>
        finish(
          new LookupError(
            'upstream_timeout',
            `No answer from ${target.address} for ${name} ${type}`,
          ),
        ),
      options.timeoutMs ?? 5000,
    );
    if (options.signal?.aborted) return onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    socket.on('connect', () => socket.write(framed));
    socket.on('error', (err) =>
      finish(
        new LookupError('upstream_error', `${target.address}: ${err.message}`, { cause: err }),
      ),
    );
    socket.on('close', () =>
      finish(new LookupError('upstream_error', `${target.address} closed the connection early`)),
    );
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      while (buffered.length >= 2 && buffered.length >= 2 + buffered.readUInt16BE(0)) {
        const length = buffered.readUInt16BE(0);
        const msg = buffered.subarray(2, 2 + length);
        buffered = buffered.subarray(2 + length);
        try {
          const parsed = parseMessage(msg);
          if (parsed.id !== id) continue;
          if (onMessage(parsed.answers, parsed.rcode)) return finish();
        } catch (err) {
          if (err instanceof LookupError) return finish(err);
          if (err instanceof WireError) {
            return finish(new LookupError('upstream_error', `bad reply: ${err.message}`));
          }
          return finish(err as Error);
        }
      }
    });
  });
}

function rcodeError(target: TcpTarget, rcode: number, what: string): LookupError {
  return new LookupError(
    'upstream_error',
    `${target.address} answered ${RCODES[rcode] ?? rcode} to ${what}`,
  );
}

/** The whole zone by AXFR: every record, the closing SOA left out. */
export async function transferZone(
  zone: string,
  target: TcpTarget,
  options: TcpOptions = {},
): Promise<WireRecord[]> {
  const records: WireRecord[] = [];
  let soas = 0;
  await exchange(target, zone, 'AXFR', options, (answers, rcode) => {
    if (rcode !== 0) throw rcodeError(target, rcode, `AXFR ${zone}`);
    if (records.length === 0 && answers.length === 0) throw rcodeError(target, 5, `AXFR ${zone}`);
    for (const r of answers) {
      if (r.type === 'SOA') soas++;
      if (r.type === 'SOA' && soas === 2) return true;
      records.push(r);
    }
    return false;
  });
  if (records[0]?.type !== 'SOA')
    throw new LookupError('upstream_error', 'the transfer does not start with the SOA');
  return records;
}

/** One question over TCP; the answer records of that name and type (none for NXDOMAIN). */
export async function askTcp(
  name: string,
  type: string,
  target: TcpTarget,
  options: TcpOptions = {},
): Promise<WireRecord[]> {
  let out: WireRecord[] = [];
  await exchange(target, name, type, options, (answers, rcode) => {
    if (rcode !== 0 && rcode !== 3) throw rcodeError(target, rcode, `${name} ${type}`);
    out = answers.filter((r) => r.type === type && r.key === name.toLowerCase());
    return true;
  });
  return out;
}
