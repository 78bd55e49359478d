// The only place the validator touches the network: one question, with EDNS0, the DO bit (send
// the RRSIGs and denial records) and the CD bit (a validating upstream still hands over bogus
// data, so we can say why it is bogus), over UDP, again over TCP when the answer is truncated.
// The validator sees just the `Exchange` signature, so it can be pointed at the shared DNS
// transport without touching anything else.
import { createSocket } from 'node:dgram';
import { connect } from 'node:net';
import { isIP } from 'node:net';
import * as packet from 'dns-packet';
import { LookupError } from '../../../contract/errors';

export interface Nameserver {
  address: string;
  port: number;
}

/** One question, one decoded answer; throws LookupError (upstream_timeout, upstream_error, cancelled). */
export type Exchange = (
  name: string,
  type: string,
  server: Nameserver,
  signal?: AbortSignal,
) => Promise<packet.Packet>;

export interface ExchangeOptions {
  /** per try, in milliseconds */
  timeoutMs?: number;
  /** UDP tries before giving up */
  tries?: number;
}

/** RFC 9715's advice for a payload size that avoids IP fragmentation. */
const UDP_PAYLOAD = 1232;
const MAX_TCP_MESSAGE = 65535;

export function createExchange(options: ExchangeOptions = {}): Exchange {
  const timeoutMs = options.timeoutMs ?? 2500;
  const tries = options.tries ?? 2;
  return async (name, type, server, signal) => {
    for (let attempt = 1; ; attempt++) {
      try {
        const reply = await overUdp(name, type, server, timeoutMs, signal);
        if (!reply.truncated) return reply.packet;
        return await overTcp(name, type, server, timeoutMs, signal);
      } catch (err) {
        const retry = err instanceof LookupError && err.code === 'upstream_timeout';
        if (!retry || attempt >= tries) throw err;
      }
    }
  };
}

function encodeQuery(id: number, name: string, type: string): Buffer {
  return packet.encode({
    type: 'query',
    id,
    flags: packet.RECURSION_DESIRED | packet.CHECKING_DISABLED,
    questions: [{ name, type: type as packet.RecordType, class: 'IN' }],
    additionals: [
      {
        type: 'OPT',
        name: '.',
        udpPayloadSize: UDP_PAYLOAD,
        flags: packet.DNSSEC_OK,
      } as packet.Answer,
    ],
  });
}

/** The answer belongs to our question: same id, same name (any case) and type. */
function matches(reply: packet.Packet, id: number, name: string, type: string): boolean {
  if (reply.id !== id || reply.type !== 'response') return false;
  const q = reply.questions?.[0];
  if (q === undefined) return true; // some servers omit the question on errors (FORMERR)
  const strip = (n: string) => n.replace(/\.$/, '').toLowerCase();
  return strip(q.name) === strip(name) && q.type === type;
}

interface UdpReply {
  packet: packet.Packet;
  truncated: boolean;
}

function overUdp(
  name: string,
  type: string,
  server: Nameserver,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<UdpReply> {
  const id = Math.floor(Math.random() * 65536);
  const message = encodeQuery(id, name, type);
  const socket = createSocket(isIP(server.address) === 6 ? 'udp6' : 'udp4');
  return settleOnce<UdpReply>(
    timeoutMs,
    signal,
    name,
    () => socket.close(),
    (resolve, fail) => {
      socket.on('error', () =>
        fail(new LookupError('upstream_error', `The query for ${name} failed`)),
      );
      socket.on('message', (msg: Buffer) => {
        const truncated =
          msg.length >= 4 && (msg.readUInt16BE(2) & packet.TRUNCATED_RESPONSE) !== 0;
        let reply: packet.Packet;
        try {
          reply = packet.decode(msg);
        } catch {
          // A truncated answer may not even decode; its header is enough to go to TCP.
          if (truncated && msg.readUInt16BE(0) === id) {
            resolve({ packet: { id }, truncated: true });
          }
          return; // garbage or a forged answer: keep waiting for ours
        }
        if (matches(reply, id, name, type)) resolve({ packet: reply, truncated });
      });
      socket.send(message, server.port, server.address);
    },
  );
}

function overTcp(
  name: string,
  type: string,
  server: Nameserver,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<packet.Packet> {
  const id = Math.floor(Math.random() * 65536);
  const message = encodeQuery(id, name, type);
  const framed = Buffer.alloc(message.length + 2);
  framed.writeUInt16BE(message.length, 0);
  message.copy(framed, 2);
  const socket = connect({ host: server.address, port: server.port });
  return settleOnce<packet.Packet>(
    timeoutMs,
    signal,
    name,
    () => socket.destroy(),
    (resolve, fail) => {
      let buffered = Buffer.alloc(0);
      socket.on('error', () =>
        fail(new LookupError('upstream_error', `The TCP query for ${name} failed`)),
      );
      socket.on('close', () =>
        fail(
          new LookupError('upstream_error', `The nameserver closed TCP before answering ${name}`),
        ),
      );
      socket.on('data', (chunk: Buffer) => {
        buffered = Buffer.concat([buffered, chunk]);
        if (buffered.length > MAX_TCP_MESSAGE + 2) {
          fail(new LookupError('upstream_error', `The answer for ${name} is too large`));
          return;
        }
        if (buffered.length < 2) return;
        const length = buffered.readUInt16BE(0);
        if (buffered.length < length + 2) return;
        try {
          const reply = packet.decode(buffered.subarray(2, length + 2));
          if (matches(reply, id, name, type)) resolve(reply);
          else fail(new LookupError('upstream_error', `A mismatched TCP answer for ${name}`));
        } catch {
          fail(new LookupError('upstream_error', `An undecodable answer for ${name}`));
        }
      });
      socket.write(framed);
    },
  );
}

/** A promise that settles once, on an answer, an error, the timer or the caller's signal. */
function settleOnce<T>(
  timeoutMs: number,
  signal: AbortSignal | undefined,
  name: string,
  cleanup: () => void,
  start: (resolve: (value: T) => void, fail: (err: LookupError) => void) => void,
): Promise<T> {
  return new Promise<T>((resolvePromise, rejectPromise) => {
    if (signal?.aborted) {
      cleanup();
      rejectPromise(new LookupError('cancelled', 'The request was cancelled'));
      return;
    }
    let done = false;
    const finish = (fn: () => void) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      cleanup();
      fn();
    };
    const onAbort = () =>
      finish(() => rejectPromise(new LookupError('cancelled', 'The request was cancelled')));
    const timer = setTimeout(
      () =>
        finish(() => rejectPromise(new LookupError('upstream_timeout', `No answer for ${name}`))),
      timeoutMs,
    );
    signal?.addEventListener('abort', onAbort, { once: true });
    start(
      (value) => finish(() => resolvePromise(value)),
      (err) => finish(() => rejectPromise(err)),
    );
  });
}
