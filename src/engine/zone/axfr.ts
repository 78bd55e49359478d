// A nameserver's records for the drift comparison, through the engine's DNS transport: the
// whole zone by transfer (AXFR, RFC 5936, over the transport's stream part) or the answer to
// one question; each record in the canonical form the zone parser gives a file's records.
import { LookupError } from '../../contract/errors';
import { canonicalRecord, type CanonicalRecord } from '../dns/rdata/canonical';
import { exchange, transfer, type ExchangeOptions } from '../dns/transport';
import { RCODE } from '../dns/wire';

export interface TcpTarget {
  address: string;
  port: number;
}

export interface TcpOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
}

const TYPE_AXFR = 252;
const RCODE_NAMES = ['NOERROR', 'FORMERR', 'SERVFAIL', 'NXDOMAIN', 'NOTIMP', 'REFUSED'];

function rcodeError(target: TcpTarget, rcode: number, what: string): LookupError {
  return new LookupError(
    'upstream_error',
    `${target.address} answered ${RCODE_NAMES[rcode] ?? rcode} to ${what}`,
  );
}

function exchangeOptions(options: TcpOptions): ExchangeOptions {
  return {
    timeoutMs: options.timeoutMs ?? 5000,
    recursionDesired: false,
    ...(options.signal ? { signal: options.signal } : {}),
  };
}

/** The whole zone by AXFR: every record, the closing SOA left out. */
export async function transferZone(
  zone: string,
  target: TcpTarget,
  options: TcpOptions = {},
): Promise<CanonicalRecord[]> {
  const records: CanonicalRecord[] = [];
  let soas = 0;
  await transfer({ name: zone, type: TYPE_AXFR }, target, exchangeOptions(options), (reply) => {
    const { rcode, answers } = reply.parsed;
    if (rcode !== RCODE.NOERROR) throw rcodeError(target, rcode, `AXFR ${zone}`);
    if (records.length === 0 && answers.length === 0) {
      throw rcodeError(target, RCODE.REFUSED, `AXFR ${zone}`);
    }
    for (const answer of answers) {
      const record = canonicalRecord(answer, 'all');
      // RFC 5936 section 2.2: the answer opens and closes with the zone's SOA
      if (records.length === 0 && record.type !== 'SOA') {
        throw new LookupError('upstream_error', 'the transfer does not start with the SOA');
      }
      if (record.type === 'SOA' && ++soas === 2) return true;
      records.push(record);
    }
    return false;
  });
  return records;
}

/** One question (UDP, TCP when truncated); the answer records of that name and type. */
export async function askRecords(
  key: string,
  typeCode: number,
  target: TcpTarget,
  options: TcpOptions = {},
): Promise<CanonicalRecord[]> {
  const reply = await exchange(
    { name: key, type: typeCode },
    { transport: 'dns', address: target.address, port: target.port },
    exchangeOptions(options),
  );
  const { rcode, answers } = reply.parsed;
  if (rcode !== RCODE.NOERROR && rcode !== RCODE.NXDOMAIN) {
    throw rcodeError(target, rcode, `${key} TYPE${typeCode}`);
  }
  return answers
    .filter((r) => r.type === typeCode)
    .map((r) => canonicalRecord(r, 'all'))
    .filter((r) => r.key === key);
}
