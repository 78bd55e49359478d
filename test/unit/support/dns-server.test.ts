// Self-test of the DNS fixture server and the zone file reader, asked with dns-packet directly
// so the checks do not depend on the engine they are used to test.
import assert from 'node:assert/strict';
import { createSocket } from 'node:dgram';
import { connect } from 'node:net';
import * as packet from 'dns-packet';
import {
  loadFixtureZones,
  parseZone,
  startDnsServer,
  type DnsFixture,
} from '../../support/dns-server';

function askUdp(fx: DnsFixture, name: string, type: string): Promise<packet.Packet> {
  const socket = createSocket('udp4');
  const query = packet.encode({
    id: 7,
    type: 'query',
    flags: packet.RECURSION_DESIRED,
    questions: [{ name, type } as packet.Question],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.close();
      reject(new Error('no answer'));
    }, 1000);
    socket.on('message', (msg) => {
      clearTimeout(timer);
      socket.close();
      resolve(packet.decode(msg));
    });
    socket.send(query, fx.port, fx.host);
  });
}

function askTcp(fx: DnsFixture, name: string, type: string): Promise<packet.Packet> {
  const socket = connect(fx.port, fx.host);
  socket.write(
    packet.streamEncode({ id: 8, type: 'query', questions: [{ name, type } as packet.Question] }),
  );
  return new Promise((resolve, reject) => {
    let data = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      if (data.length >= 2 && data.length >= 2 + data.readUInt16BE(0)) {
        socket.destroy();
        resolve(packet.streamDecode(data));
      }
    });
    socket.on('error', reject);
  });
}

// @types/dns-packet leaves out the decoded rcode and the TTL of answers.
const rcodeOf = (p: packet.Packet) => (p as { rcode?: string }).rcode;
const ttlOf = (a: packet.Answer | undefined) => (a as { ttl?: number } | undefined)?.ttl;

describe('test/support dns-server', () => {
  let fx: DnsFixture;
  before(async () => {
    fx = await startDnsServer({
      records: loadFixtureZones(),
      behaviour: (q) => (q.name.startsWith('tc.') ? 'truncate' : undefined),
    });
  });
  after(async () => fx.close());

  it('answers authoritatively, case-insensitively, echoing the question', async () => {
    const r = await askUdp(fx, 'WWW.Example.Test', 'A');
    assert.equal(rcodeOf(r), 'NOERROR');
    assert.ok((r.flags ?? 0) & packet.AUTHORITATIVE_ANSWER);
    assert.equal(r.questions?.[0]?.name, 'WWW.Example.Test');
    assert.deepEqual(
      r.answers?.map((a): unknown[] => [a.name, a.type, (a as { data: unknown }).data, ttlOf(a)]),
      [
        ['WWW.Example.Test', 'CNAME', 'web.example.test', 3600],
        ['web.example.test', 'CNAME', 'host1.example.test', 120],
        ['host1.example.test', 'A', '192.0.2.30', 60],
        ['host1.example.test', 'A', '192.0.2.31', 60],
      ],
    );
  });

  it('tells NXDOMAIN from NODATA, with the SOA in the authority section', async () => {
    const nx = await askUdp(fx, 'nope.example.test', 'A');
    assert.equal(rcodeOf(nx), 'NXDOMAIN');
    assert.equal(nx.authorities?.[0]?.type, 'SOA');
    const nodata = await askUdp(fx, 'mail.example.test', 'MX');
    assert.equal(rcodeOf(nodata), 'NOERROR');
    assert.equal(nodata.answers?.length, 0);
    const ent = await askUdp(fx, 'empty.example.test', 'A');
    assert.equal(rcodeOf(ent), 'NOERROR');
  });

  it('synthesises wildcard answers with the asked name as owner', async () => {
    const r = await askUdp(fx, 'x.y.wild.example.test', 'A');
    assert.deepEqual(
      r.answers?.map((a) => [a.name, (a as { data: unknown }).data]),
      [['x.y.wild.example.test', '192.0.2.50']],
    );
  });

  it('truncates over UDP on request and answers over TCP', async () => {
    await fx.close();
    fx = await startDnsServer({
      records: [
        { name: 'tc.test', type: 'A', data: '192.0.2.1' },
        { name: 'tc.test', type: 'TXT', data: ['a'.repeat(255), 'b'.repeat(255), 'c'] },
      ],
      behaviour: (q) => (q.type === 'A' ? 'truncate' : undefined),
    });
    const udp = await askUdp(fx, 'tc.test', 'A');
    assert.ok((udp.flags ?? 0) & packet.TRUNCATED_RESPONSE);
    assert.equal(udp.answers?.length, 0);
    const tcp = await askTcp(fx, 'tc.test', 'A');
    assert.equal(tcp.answers?.length, 1);
    assert.equal(ttlOf(tcp.answers?.[0]), 300, 'default TTL');
    // over 512 octets without EDNS: truncated by size
    const big = await askUdp(fx, 'tc.test', 'TXT');
    assert.ok((big.flags ?? 0) & packet.TRUNCATED_RESPONSE);
    const bigTcp = await askTcp(fx, 'tc.test', 'TXT');
    const data = (bigTcp.answers?.[0] as { data: Buffer[] }).data.map((b) => b.toString());
    assert.deepEqual(data, ['a'.repeat(255), 'b'.repeat(255), 'c']);
    assert.deepEqual(
      fx.queries.map((q) => q.transport),
      ['udp', 'tcp', 'udp', 'tcp'],
    );
  });

  it('answers SERVFAIL and REFUSED when told to', async () => {
    await fx.close();
    fx = await startDnsServer({
      records: [],
      behaviour: (q) => (q.type === 'A' ? 'servfail' : 'refused'),
    });
    assert.equal(rcodeOf(await askUdp(fx, 'x.test', 'A')), 'SERVFAIL');
    assert.equal(rcodeOf(await askUdp(fx, 'x.test', 'MX')), 'REFUSED');
  });

  describe('zone file reader', () => {
    it('reads $ORIGIN, $TTL, @, blank owners, TTL units, parentheses and strings', () => {
      const records = parseZone(
        [
          '$ORIGIN z.test.',
          '$TTL 1h',
          '@ IN SOA ns hostmaster ( 1 2h 30m 1w 5m ) ; comment',
          '  NS ns.other.test.',
          'txt 60 IN TXT "a \\"quoted\\" ; not a comment" plain "\\065\\066"',
          'mx MX 0 .',
          'caa CAA 0 issue "ca.test"',
        ].join('\n'),
      );
      assert.deepEqual(records, [
        {
          name: 'z.test',
          type: 'SOA',
          ttl: 3600,
          data: {
            mname: 'ns.z.test',
            rname: 'hostmaster.z.test',
            serial: 1,
            refresh: 7200,
            retry: 1800,
            expire: 604800,
            minimum: 300,
          },
        },
        { name: 'z.test', type: 'NS', ttl: 3600, data: 'ns.other.test' },
        {
          name: 'txt.z.test',
          type: 'TXT',
          ttl: 60,
          data: ['a "quoted" ; not a comment', 'plain', 'AB'],
        },
        { name: 'mx.z.test', type: 'MX', ttl: 3600, data: { preference: 0, exchange: '.' } },
        {
          name: 'caa.z.test',
          type: 'CAA',
          ttl: 3600,
          data: { flags: 0, tag: 'issue', value: 'ca.test' },
        },
      ]);
    });

    it('refuses what it does not understand, with the line number', () => {
      assert.throws(() => parseZone('$ORIGIN a.\nx IN HINFO "a" "b"'), /:2: unknown type/);
      assert.throws(() => parseZone('x A 192.0.2.1'), /relative name/);
      assert.throws(() => parseZone('$ORIGIN a.\nx TXT "open'), /unterminated/);
      assert.throws(() => parseZone(`$ORIGIN a.\nx TXT "${'a'.repeat(256)}"`), /255/);
    });

    it('loads every fixture zone with all ten types', () => {
      const types = new Set(loadFixtureZones().map((r) => r.type));
      assert.deepEqual([...types].sort(), [
        'A',
        'AAAA',
        'CAA',
        'CNAME',
        'MX',
        'NS',
        'PTR',
        'SOA',
        'SRV',
        'TXT',
      ]);
    });
  });
});
