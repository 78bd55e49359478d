// The transport's checks on what comes back, against a rogue loopback nameserver that answers
// with whatever bytes a test gives it: a malformed reply or one about another question fails
// the try at once (not after the timeout), a reply with another ID is ignored, every query
// carries EDNS0 with a 1232-byte payload (and the DO bit when asked), and a server that
// answers FORMERR without EDNS is asked again without it.
import assert from 'node:assert/strict';
import { createSocket, type Socket } from 'node:dgram';
import * as packet from 'dns-packet';
import { LookupError } from '../../../../src/contract/errors';
import { exchange, type NameServer } from '../../../../src/engine/dns/transport';
import { query } from '../../../../src/engine/dns/query';
import { TYPE_CODES } from '../../../../src/engine/dns/wire';
import { rawReply } from '../../../support/dns-wire';

type Responder = (query: Buffer, send: (reply: Buffer) => void) => void;

describe('engine/dns transport', () => {
  let socket: Socket;
  let server: NameServer;
  let responder: Responder;
  const seen: Buffer[] = [];

  before(async () => {
    socket = createSocket('udp4');
    socket.on('message', (msg, rinfo) => {
      seen.push(msg);
      responder(msg, (reply) => socket.send(reply, rinfo.port, rinfo.address));
    });
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    server = { transport: 'dns', address: '127.0.0.1', port: socket.address().port };
  });
  after(() => socket.close());
  beforeEach(() => (seen.length = 0));

  const idOf = (q: Buffer) => q.readUInt16BE(0);
  const a = (q: Buffer, name = 'a.test') =>
    rawReply(name, TYPE_CODES.A, [{ owner: name, type: 1, rdata: Buffer.from([192, 0, 2, 1]) }], {
      id: idOf(q),
    });

  async function failsFast(what: string, make: (q: Buffer) => Buffer): Promise<void> {
    responder = (q, send) => send(make(q));
    const started = Date.now();
    await assert.rejects(
      exchange({ name: 'a.test', type: 'A' }, server, { timeoutMs: 5000 }),
      (e: unknown) => e instanceof LookupError && e.code === 'upstream_error',
      what,
    );
    assert.ok(Date.now() - started < 2500, `${what}: took ${Date.now() - started} ms`);
  }

  it('a malformed reply fails the try at once', async () => {
    await failsFast('cut message', (q) => a(q).subarray(0, 20));
    await failsFast('garbage after the ID', (q) =>
      Buffer.concat([q.subarray(0, 2), Buffer.alloc(3)]),
    );
    await failsFast('not a response', (q) => Buffer.from(q));
  });

  it('a reply to another question fails the try at once', async () => {
    await failsFast('another name', (q) => a(q, 'b.test'));
    await failsFast('another type', (q) => rawReply('a.test', TYPE_CODES.TXT, [], { id: idOf(q) }));
  });

  it('a reply with another ID is ignored, and the right one taken', async () => {
    responder = (q, send) => {
      send(
        rawReply(
          'a.test',
          TYPE_CODES.A,
          [{ owner: 'a.test', type: 1, rdata: Buffer.from([203, 0, 113, 66]) }],
          { id: (idOf(q) + 1) % 65536 },
        ),
      );
      setTimeout(() => send(a(q)), 20);
    };
    const reply = await exchange({ name: 'a.test', type: 'A' }, server, { timeoutMs: 2000 });
    assert.equal(reply.transport, 'udp');
    assert.deepEqual([...reply.message.subarray(-4)], [192, 0, 2, 1]);
  });

  it('every query carries EDNS0 with a 1232-byte payload; DO only when asked', async () => {
    responder = (q, send) => send(a(q));
    await exchange({ name: 'a.test', type: 'A' }, server);
    await exchange({ name: 'a.test', type: 'A' }, server, { dnssecOk: true });
    const opts = seen.map((q) => packet.decode(q).additionals?.find((r) => r.type === 'OPT'));
    assert.deepEqual(
      opts.map((o) => [
        (o as { udpPayloadSize?: number })?.udpPayloadSize,
        (o as { flags?: number })?.flags,
      ]),
      [
        [1232, 0],
        [1232, packet.DNSSEC_OK],
      ],
    );
  });

  it('FORMERR without an OPT record: asked again without EDNS', async () => {
    responder = (q, send) => {
      const hasOpt = (packet.decode(q).additionals ?? []).length > 0;
      send(hasOpt ? rawReply('a.test', TYPE_CODES.A, [], { id: idOf(q), rcode: 1 }) : a(q));
    };
    const r = await query({ host: 'a.test', types: ['A'], server: `127.0.0.1:${server.port}` });
    assert.deepEqual(r.records, [{ type: 'A', value: '192.0.2.1', ttl: 300 }]);
    assert.equal(seen.length, 2);
  });

  it('the normal query path ignores records owned by another name', async () => {
    responder = (q, send) =>
      send(
        rawReply(
          'a.test',
          TYPE_CODES.TXT,
          [{ owner: 'evil.test', type: 16, rdata: Buffer.from('\u000bv=spf1 +all') }],
          { id: idOf(q) },
        ),
      );
    const r = await query({ host: 'a.test', types: ['TXT'], server: `127.0.0.1:${server.port}` });
    assert.deepEqual(r, { records: [], status: 'NOERROR' });
  });
});
