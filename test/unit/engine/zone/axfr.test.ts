// The zone transfer through the engine's transport (dns/transport.ts `transfer`): an answer of
// many messages on one TCP connection, told apart by the transport's ID, and every way it can
// fail, against a loopback server that answers as scripted.
import * as assert from 'node:assert/strict';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import * as packet from 'dns-packet';
import { transferZone } from '../../../../src/engine/zone/axfr';
import { codeAndDetail } from '../../../support/settled';

const ZONE = 'example.test.';
const SOA = {
  name: 'example.test',
  type: 'SOA' as const,
  ttl: 3600,
  data: {
    mname: 'ns.example.test',
    rname: 'hostmaster.example.test',
    serial: 7,
    refresh: 3600,
    retry: 600,
    expire: 86400,
    minimum: 300,
  },
};
const a = (name: string, address: string) => ({
  name,
  type: 'A' as const,
  ttl: 60,
  data: address,
});

type Script = (id: number, send: (message: Buffer) => void, socket: Socket) => void;

function frame(message: Buffer): Buffer {
  const out = Buffer.alloc(2 + message.length);
  out.writeUInt16BE(message.length, 0);
  message.copy(out, 2);
  return out;
}

function reply(id: number, answers: packet.Answer[], rcode = 0, question = true): Buffer {
  return packet.encode({
    type: 'response',
    id,
    flags: rcode,
    questions: question ? [{ name: 'example.test', type: 'AXFR' }] : [],
    answers,
  });
}

async function serve(script: Script): Promise<{ server: Server; port: number }> {
  const server = createServer((socket) => {
    let buffered = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      if (buffered.length < 2 || buffered.length < 2 + buffered.readUInt16BE(0)) return;
      const id = buffered.readUInt16BE(2);
      script(id, (message) => socket.write(frame(message)), socket);
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

async function transfer(script: Script, options: { timeoutMs?: number; signal?: AbortSignal }) {
  const { server, port } = await serve(script);
  try {
    return await transferZone(ZONE, { address: '127.0.0.1', port }, options);
  } finally {
    server.close();
  }
}

describe('engine/zone transfer (AXFR) through the transport', () => {
  it('reads an answer of several messages, the closing SOA left out, a stray ID ignored', async () => {
    const records = await transfer(
      (id, send) => {
        send(reply((id + 1) & 0xffff, [a('forged.example.test', '203.0.113.66')]));
        send(reply(id, [SOA, a('www.example.test', '192.0.2.1')]));
        // RFC 5936 section 2.2.1: later messages may leave the question out
        send(reply(id, [a('Mail.Example.Test', '192.0.2.2'), SOA], 0, false));
      },
      { timeoutMs: 2000 },
    );
    assert.deepEqual(
      records.map((r) => `${r.key} ${r.type} ${r.data}`),
      [
        'example.test. SOA ns.example.test. hostmaster.example.test. 7 3600 600 86400 300',
        'www.example.test. A 192.0.2.1',
        'mail.example.test. A 192.0.2.2',
      ],
    );
  });

  it('fails with the code and cause of every way a transfer can go wrong', async () => {
    const cases: Array<[string, Script, RegExp]> = [
      ['refused', (id, send) => send(reply(id, [], 5)), /^upstream_error: .*REFUSED to AXFR/],
      ['empty', (id, send) => send(reply(id, [])), /^upstream_error: .*REFUSED to AXFR/],
      [
        'not starting with the SOA',
        (id, send) => send(reply(id, [a('www.example.test', '192.0.2.1'), SOA])),
        /^upstream_error: the transfer does not start with the SOA/,
      ],
      [
        'malformed',
        (id, send) => send(reply(id, [SOA]).subarray(0, 40)),
        /^upstream_error: The nameserver sent a malformed answer/,
      ],
      [
        'closed early',
        (id, send, socket) => {
          send(reply(id, [SOA]));
          socket.end();
        },
        /^upstream_error: The nameserver closed the connection/,
      ],
      ['silent', () => undefined, /^upstream_timeout: /],
    ];
    for (const [what, script, expected] of cases) {
      const got = await codeAndDetail(transfer(script, { timeoutMs: 300 }));
      assert.match(got, expected, `${what}: ${got}`);
    }
  });

  it('stops at once when cancelled', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    const got = await codeAndDetail(
      transfer(() => undefined, { timeoutMs: 5000, signal: controller.signal }),
    );
    assert.match(got, /^cancelled: /);
    assert.ok(Date.now() - started < 2000);
  });
});
