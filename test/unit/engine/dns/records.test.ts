// One reply into the contract's records or an outcome, from bytes: the RCODE mapping, the
// CNAME chain (only records on it, each with its own TTL), NODATA behind an alias, and
// malformed record data refused.
import assert from 'node:assert/strict';
import { outcomeOf } from '../../../../src/engine/dns/records';
import { textToLabels } from '../../../../src/engine/dns/names';
import { MalformedMessage, parseMessage, TYPE_CODES } from '../../../../src/engine/dns/wire';
import {
  caaRdata,
  encodeName,
  labelsName,
  rawReply,
  txtRdata,
  u16,
} from '../../../support/dns-wire';

const T = TYPE_CODES;
const ip = (text: string) => Buffer.from(text.split('.').map(Number));
const outcome = (reply: Buffer, name: string, type: keyof typeof T) =>
  outcomeOf(parseMessage(reply), textToLabels(name), type as never);

describe('engine/dns records', () => {
  const rcodes: Array<[number, ReturnType<typeof outcomeOf>]> = [
    [3, { kind: 'nxdomain' }],
    [0, { kind: 'nodata' }],
    [2, { kind: 'failed', code: 'servfail' }],
    [5, { kind: 'failed', code: 'refused' }],
    [1, { kind: 'failed', code: 'upstream_error' }],
    [4, { kind: 'failed', code: 'upstream_error' }],
    [9, { kind: 'failed', code: 'upstream_error' }],
  ];
  for (const [rcode, expected] of rcodes) {
    it(`maps RCODE ${rcode} without records to ${JSON.stringify(expected)}`, () => {
      assert.deepEqual(outcome(rawReply('a.test', T.A, [], { rcode }), 'a.test', 'A'), expected);
    });
  }

  it('an SOA question at an alias whose target has no SOA is NODATA', () => {
    const reply = rawReply('alias.test', T.SOA, [
      { owner: 'alias.test', type: T.CNAME, rdata: encodeName('target.test') },
    ]);
    assert.deepEqual(outcome(reply, 'alias.test', 'SOA'), {
      kind: 'nodata',
      chain: [{ name: 'alias.test.', type: 'CNAME', value: 'target.test.', ttl: 300 }],
    });
  });

  it('a CNAME chain without data of the type is NODATA', () => {
    const reply = rawReply('alias.test', T.MX, [
      { owner: 'alias.test', type: T.CNAME, rdata: encodeName('target.test') },
    ]);
    assert.deepEqual(outcome(reply, 'alias.test', 'MX'), {
      kind: 'nodata',
      chain: [{ name: 'alias.test.', type: 'CNAME', value: 'target.test.', ttl: 300 }],
    });
  });

  it('takes the chain from the one answer; each record keeps its own TTL', () => {
    const reply = rawReply('a.test', T.TXT, [
      { owner: 'a.test', type: T.CNAME, ttl: 10, rdata: encodeName('b.test') },
      { owner: 'b.test', type: T.CNAME, ttl: 20, rdata: encodeName('c.test') },
      { owner: 'c.test', type: T.TXT, ttl: 7200, rdata: txtRdata(Buffer.from('key')) },
    ]);
    assert.deepEqual(outcome(reply, 'a.test', 'TXT'), {
      kind: 'records',
      records: [{ name: 'c.test.', type: 'TXT', value: 'key', parts: ['key'], ttl: 7200 }],
      chain: [
        { name: 'a.test.', type: 'CNAME', value: 'b.test.', ttl: 10 },
        { name: 'b.test.', type: 'CNAME', value: 'c.test.', ttl: 20 },
      ],
    });
    assert.deepEqual(outcome(reply, 'A.TEST', 'CNAME'), {
      kind: 'records',
      records: [{ type: 'CNAME', value: 'b.test.', ttl: 10 }],
    });
  });

  it('ignores records owned by any name off the chain', () => {
    const reply = rawReply('a.test', T.A, [
      { owner: 'evil.test', type: T.A, rdata: ip('203.0.113.66') },
      { owner: 'a.test', type: T.CNAME, rdata: encodeName('b.test') },
      { owner: 'other.test', type: T.A, rdata: ip('203.0.113.67') },
      { owner: 'b.test', type: T.A, ttl: 60, rdata: ip('192.0.2.1') },
    ]);
    assert.deepEqual(outcome(reply, 'a.test', 'A'), {
      kind: 'records',
      records: [{ name: 'b.test.', type: 'A', value: '192.0.2.1', ttl: 60 }],
      chain: [{ name: 'a.test.', type: 'CNAME', value: 'b.test.', ttl: 300 }],
    });
    const only = rawReply('a.test', T.TXT, [
      { owner: 'b.test', type: T.TXT, rdata: txtRdata(Buffer.from('v=spf1 +all')) },
    ]);
    assert.deepEqual(outcome(only, 'a.test', 'TXT'), { kind: 'nodata' });
  });

  it('stops on a CNAME loop', () => {
    const reply = rawReply('a.test', T.A, [
      { owner: 'a.test', type: T.CNAME, rdata: encodeName('b.test') },
      { owner: 'b.test', type: T.CNAME, rdata: encodeName('a.test') },
    ]);
    assert.deepEqual(outcome(reply, 'a.test', 'A'), {
      kind: 'nodata',
      chain: [
        { name: 'a.test.', type: 'CNAME', value: 'b.test.', ttl: 300 },
        { name: 'b.test.', type: 'CNAME', value: 'a.test.', ttl: 300 },
      ],
    });
  });

  it('reads a CAA record whatever its tag is called', () => {
    const reply = rawReply('x.test', T.CAA, [
      { owner: 'x.test', type: T.CAA, rdata: caaRdata(128, 'contactemail', 'a@b.test') },
    ]);
    assert.deepEqual(outcome(reply, 'x.test', 'CAA'), {
      kind: 'records',
      records: [{ type: 'CAA', flags: 128, tag: 'contactemail', value: 'a@b.test', ttl: 300 }],
    });
  });

  it('gives every type its TTL and fields', () => {
    const soa = Buffer.concat([
      encodeName('ns.x.test'),
      labelsName('host.master', 'x', 'test'),
      ...[1, 2, 3, 4, 5].map((n) => Buffer.from([0, 0, 0, n])),
    ]);
    const reply = rawReply('x.test', T.SOA, [{ owner: 'x.test', type: T.SOA, ttl: 9, rdata: soa }]);
    assert.deepEqual(outcome(reply, 'x.test', 'SOA'), {
      kind: 'records',
      records: [
        {
          type: 'SOA',
          mname: 'ns.x.test.',
          rname: 'host\\.master.x.test.',
          serial: 1,
          refresh: 2,
          retry: 3,
          expire: 4,
          min_ttl: 5,
          ttl: 9,
        },
      ],
    });
    const srv = Buffer.concat([u16(1), u16(2), u16(443), encodeName('')]);
    const srvReply = rawReply('_x._tcp.x.test', T.SRV, [
      { owner: '_x._tcp.x.test', type: T.SRV, ttl: 8, rdata: srv },
    ]);
    assert.deepEqual(outcome(srvReply, '_x._tcp.x.test', 'SRV'), {
      kind: 'records',
      records: [{ type: 'SRV', priority: 1, weight: 2, port: 443, value: '.', ttl: 8 }],
    });
  });

  const malformed: Array<[string, keyof typeof T, Buffer]> = [
    ['an A of 3 octets', 'A', Buffer.from([1, 2, 3])],
    ['an AAAA of 4 octets', 'AAAA', Buffer.from([1, 2, 3, 4])],
    ['a TXT string running past its record', 'TXT', Buffer.from([9, 0x61])],
    ['a CAA tag running past its record', 'CAA', Buffer.from([0, 9, 0x61])],
    ['an MX without its exchange', 'MX', Buffer.from([0, 1])],
    ['an SOA without its numbers', 'SOA', Buffer.concat([encodeName('a'), encodeName('b')])],
  ];
  for (const [what, type, rdata] of malformed) {
    it(`refuses ${what} as malformed`, () => {
      const reply = rawReply('x.test', T[type], [{ owner: 'x.test', type: T[type], rdata }]);
      assert.throws(() => outcome(reply, 'x.test', type), MalformedMessage);
    });
  }
});
