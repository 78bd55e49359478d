// The transport's checks on what comes back, against a rogue loopback nameserver that answers
// with whatever bytes a test gives it: a malformed reply or one about another question fails
// the try at once (not after the timeout), a reply with another ID is ignored, every query
// carries EDNS0 with a 1232-byte payload (and the DO bit when asked), and a server that
// answers FORMERR without EDNS is asked again without it.
import assert from 'node:assert/strict';
import { createSocket, type Socket } from 'node:dgram';
import * as packet from 'dns-packet';
import { LookupError } from '../../../../src/contract/errors';
import { ExchangeError } from '../../../../src/engine/dns/errors';
import { exchange, Session, type NameServer } from '../../../../src/engine/dns/transport';
import { query } from '../../../../src/engine/dns/query';
import { TYPE_CODES } from '../../../../src/engine/dns/wire';
import { rawReply } from '../../../support/dns-wire';
import { closedUdpPort } from '../../../support/knot';

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

  describe('one socket a look-up', () => {
    const peers = () => new Set(seenFrom.map((r) => r.port));
    const seenFrom: Array<{ port: number }> = [];
    beforeEach(() => (seenFrom.length = 0));
    const remember: Responder = (q, send) => send(a(q));
    const nodata: Responder = (q, send) => {
      const type = packet.decode(q).questions![0].type as keyof typeof TYPE_CODES;
      send(rawReply('a.test', TYPE_CODES[type], [], { id: idOf(q) }));
    };

    before(() => socket.on('message', (_m, rinfo) => seenFrom.push(rinfo)));

    it('the questions of one look-up share one UDP socket and each gets its own reply', async () => {
      // Replies come back in the reverse order of the questions: matched by ID, not by order.
      const held: Array<() => void> = [];
      responder = (q, send) => {
        const name = packet.decode(q).questions![0].name;
        held.push(() =>
          send(
            rawReply(
              name,
              TYPE_CODES.TXT,
              [
                {
                  owner: name,
                  type: 16,
                  rdata: Buffer.concat([Buffer.of(name.length), Buffer.from(name)]),
                },
              ],
              { id: idOf(q) },
            ),
          ),
        );
        if (held.length === 3) held.reverse().forEach((f) => f());
      };
      const session = new Session();
      try {
        const names = ['x.test', 'yy.test', 'zzz.test'];
        const replies = await Promise.all(
          names.map((name) => exchange({ name, type: 'TXT' }, server, { session })),
        );
        assert.deepEqual(
          replies.map((r, i) => r.message.subarray(r.message.length - names[i].length).toString()),
          names,
        );
      } finally {
        session.close();
      }
      assert.equal(peers().size, 1, 'one source port for the three questions');
    });

    it('a look-up of the ten types asks them all from one socket', async () => {
      responder = nodata;
      await query({ host: 'a.test', server: `127.0.0.1:${server.port}` });
      assert.equal(seenFrom.length, 10);
      assert.equal(peers().size, 1);
    });

    it('a session made whileBusy keeps its socket across waves and closes it when idle', async () => {
      responder = remember;
      const session = new Session('whileBusy');
      // The second question goes out from the first one's answer, as an SPF include does.
      await exchange({ name: 'a.test', type: 'A' }, server, { session }).then(() =>
        exchange({ name: 'a.test', type: 'A' }, server, { session }),
      );
      assert.equal(peers().size, 1, 'the next wave found the socket open');
      await new Promise((resolve) => setImmediate(resolve));
      await exchange({ name: 'a.test', type: 'A' }, server, { session });
      assert.equal(peers().size, 2, 'an idle socket was closed, and a new one opened');
      session.close();
    });

    it('questions on a socket to a closed port all fail at once as connection refused', async () => {
      const port = await closedUdpPort();
      const session = new Session();
      const started = Date.now();
      try {
        // The kernel tells of the ICMP error on the next call on the socket: for all but the
        // first question that is a send, whose failure only its callback hears.
        const tries = await Promise.allSettled(
          ['a', 'b', 'c', 'd'].map((n) =>
            exchange(
              { name: `${n}.test`, type: 'A' },
              { transport: 'dns', address: '127.0.0.1', port },
              { session, timeoutMs: 5000 },
            ),
          ),
        );
        for (const t of tries) {
          assert.equal(t.status, 'rejected');
          assert.equal((t.reason as ExchangeError).failure, 'connection_refused');
        }
      } finally {
        session.close();
      }
      assert.ok(Date.now() - started < 2500, `took ${Date.now() - started} ms`);
    });

    it('closing the session fails the questions still waiting', async () => {
      responder = () => undefined;
      const session = new Session();
      const pending = exchange({ name: 'a.test', type: 'A' }, server, {
        session,
        timeoutMs: 5000,
      });
      await new Promise((resolve) => setTimeout(resolve, 20));
      session.close();
      await assert.rejects(pending, (e: unknown) => e instanceof LookupError);
    });
  });
});
