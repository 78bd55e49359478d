// The first look-up of a process pays for work done once: V8 compiling the message reader
// and record builders, the UDP binding's first socket, the CSPRNG behind query IDs. A
// long-lived process (`hostlens serve`, the editor) does that work right after start, off any
// request's path, so its first answer costs what every later one does. Nothing goes beyond
// this process: the replies are built here, on a loopback socket of its own.
import { createSocket } from 'node:dgram';
import { randomInt } from 'node:crypto';
import * as packet from 'dns-packet';
import { RECORD_TYPES, type QueryResult, type RecordType } from '../../contract/shapes';
import { textToLabels } from './names';
import { outcomeOf } from './records';
import { query } from './query';
import { encodeQuery, parseMessage } from './wire';

let warming: Promise<void> | undefined;

const SAMPLE: Record<string, unknown> = {
  A: '192.0.2.1',
  AAAA: '2001:db8::1',
  CAA: { flags: 0, tag: 'issue', value: 'ca.example' },
  CNAME: 'b.warm.invalid',
  MX: { preference: 10, exchange: 'mx.warm.invalid' },
  NS: 'ns.warm.invalid',
  PTR: 'p.warm.invalid',
  TXT: ['v=spf1 -all', 'café'],
  SRV: { priority: 1, weight: 2, port: 3, target: 's.warm.invalid' },
  SOA: { mname: 'ns.warm.invalid', rname: 'h.warm.invalid', serial: 1 },
};

/**
 * Runs once per process, soon after the call, never on the caller's stack. The promise says
 * when it is over (it never rejects), so a server can start taking requests only then: a
 * request arriving while the warm-up runs would wait for it on the one event loop.
 */
export function warmUpDns(): Promise<void> {
  warming ??= new Promise<void>((done) => {
    setTimeout(() => void runWarmUp().then(() => done()), 0);
  });
  return warming;
}

/** The warm-up itself; resolves with the loopback look-up's answer (tests check it). */
export async function runWarmUp(): Promise<QueryResult | undefined> {
  try {
    const name = textToLabels('warm.invalid');
    for (const type of RECORD_TYPES) {
      encodeQuery(randomInt(0, 0x10000), name, 1);
      const reply = packet.encode({
        type: 'response',
        id: 1,
        flags: packet.RECURSION_DESIRED,
        questions: [{ type, name: 'warm.invalid' }],
        answers: [{ type, name: 'warm.invalid', ttl: 1, data: SAMPLE[type] } as packet.Answer],
      });
      outcomeOf(parseMessage(reply), name, type);
    }
    return await askLoopback();
  } catch {
    // Warming up is an optimisation; a failure here must never surface.
    return undefined;
  }
}

/**
 * One whole look-up of the ten types, through the real transport, against a responder on a
 * loopback socket of our own that answers every question with NODATA.
 */
function askLoopback(): Promise<QueryResult> {
  return withWarmResponder([], (server) =>
    query({ host: 'warm.invalid', server }, { timeoutMs: 1000, tries: 1 }),
  );
}

/** A record the warm-up responder serves, as dns-packet writes it. */
export interface WarmRecord {
  name: string;
  type: RecordType;
  data: unknown;
}

/**
 * Runs `use` with the address of a loopback responder of our own that answers from `records`
 * (NODATA for any other question), then closes it. For warm-ups only: nothing leaves the
 * process.
 */
export function withWarmResponder<T>(
  records: readonly WarmRecord[],
  use: (server: string) => Promise<T>,
): Promise<T> {
  const responder = createSocket('udp4');
  responder.unref();
  responder.on('error', () => responder.close());
  responder.on('message', (message: Buffer, peer) => {
    try {
      const query = packet.decode(message);
      const question = query.questions?.[0];
      if (question === undefined) return;
      const name = question.name.toLowerCase();
      const answers = records
        .filter((r) => r.name === name && r.type === question.type)
        .map((r) => ({ type: r.type, name: r.name, ttl: 1, data: r.data }) as packet.Answer);
      const reply = packet.encode({
        type: 'response',
        id: query.id,
        flags: packet.RECURSION_DESIRED | packet.AUTHORITATIVE_ANSWER,
        questions: [question],
        answers,
      });
      responder.send(reply, peer.port, peer.address);
    } catch {
      // not a message worth answering
    }
  });
  return new Promise<T>((resolve, reject) => {
    responder.bind(0, '127.0.0.1', () => {
      use(`127.0.0.1:${responder.address().port}`)
        .then(resolve, reject)
        .finally(() => responder.close());
    });
  });
}
