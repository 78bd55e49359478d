// The first look-up of a process pays for work done once: V8 compiling the message reader
// and record builders, the UDP binding's first socket, the CSPRNG behind query IDs. A
// long-lived process (`hostlens serve`, the editor) does that work right after start, off any
// request's path, so its first answer costs what every later one does. Nothing goes on the
// network: the reply is built here and the socket only binds to loopback.
import { createSocket } from 'node:dgram';
import { randomInt } from 'node:crypto';
import * as packet from 'dns-packet';
import { RECORD_TYPES } from '../../contract/shapes';
import { textToLabels } from './presentation';
import { outcomeOf } from './records';
import { encodeQuery, parseMessage } from './wire';

let warmed = false;

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

/** Runs once per process, soon after the call, never on the caller's stack. */
export function warmUpDns(): void {
  if (warmed) return;
  warmed = true;
  setTimeout(run, 0).unref();
}

function run(): void {
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
    const socket = createSocket('udp4');
    socket.on('error', () => socket.close());
    socket.bind(0, '127.0.0.1', () => socket.close());
    socket.unref();
  } catch {
    // Warming up is an optimisation; a failure here must never surface.
  }
}
