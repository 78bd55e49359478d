import assert from 'node:assert/strict';
import { LookupError } from '../../../../src/contract/errors';
import { query, type AllTypesFailed, type DnsOptions } from '../../../../src/engine/dns/query';
import type { QueryParams } from '../../../../src/contract/services';
import { RECORD_TYPES, type DnsRecord } from '../../../../src/contract/shapes';
import {
  loadFixtureZones,
  startDnsServer,
  type Behaviour,
  type DnsFixture,
  type FixtureRecord,
} from '../../../support/dns-server';
import { closedUdpPort } from '../../../support/knot';

// Fast timeouts: a silent nameserver costs FAST.timeoutMs × FAST.tries. c-ares 1.34 waits at
// least about 250 ms before a retry (measured), so a shorter try would never see its second.
const FAST: DnsOptions = { timeoutMs: 300, tries: 2 };
// Questions that are answered get a generous bound, so a loaded machine cannot turn a slow
// loopback answer into a timeout; only the tests about timeouts use FAST.
const NORMAL: DnsOptions = { timeoutMs: 2000, tries: 2 };
const BOUND_MS = 600;
// Scheduling slack on a busy two-core machine; still far below a second round of tries.
const SLACK_MS = 600;

async function rejects(work: Promise<unknown>, code: string): Promise<LookupError> {
  try {
    await work;
  } catch (err) {
    assert.ok(err instanceof LookupError, `expected a LookupError, got ${String(err)}`);
    assert.equal(err.code, code, err.detail);
    return err;
  }
  assert.fail(`expected ${code}, got an answer`);
}

function types(records: DnsRecord[]): string[] {
  return records.map((r) => r.type);
}

describe('engine/dns query', () => {
  let fx: DnsFixture;
  let behaviour: ((q: { name: string; type: string }) => Behaviour | undefined) | undefined;
  const ask = (params: Omit<QueryParams, 'server'>, options: DnsOptions = NORMAL) =>
    query({ ...params, server: fx.address }, options);

  before(async () => {
    fx = await startDnsServer({ records: loadFixtureZones(), behaviour: (q) => behaviour?.(q) });
  });
  after(async () => fx.close());
  beforeEach(() => {
    behaviour = undefined;
    fx.queries.length = 0;
  });

  describe('every type', () => {
    it('A and AAAA with their TTLs, in answer order', async () => {
      const r = await ask({ host: 'example.test', types: ['A', 'AAAA'] });
      assert.deepEqual(r, {
        records: [
          { type: 'A', value: '192.0.2.10', ttl: 3600 },
          { type: 'A', value: '192.0.2.11', ttl: 3600 },
          { type: 'AAAA', value: '2001:db8::10', ttl: 3600 },
          { type: 'AAAA', value: '2001:db8::11', ttl: 3600 },
        ],
        status: 'NOERROR',
      });
    });

    it('CAA as flags, tag and value', async () => {
      const r = await ask({ host: 'example.test', types: ['CAA'] });
      assert.deepEqual(r.records, [
        { type: 'CAA', flags: 0, tag: 'issue', value: 'ca.example.net', ttl: 300 },
        { type: 'CAA', flags: 0, tag: 'issuewild', value: ';', ttl: 300 },
        { type: 'CAA', flags: 128, tag: 'iodef', value: 'mailto:security@example.test', ttl: 300 },
      ]);
    });

    it('CNAME as a fully qualified target', async () => {
      const r = await ask({ host: 'www.example.test', types: ['CNAME'] });
      assert.deepEqual(r.records, [{ type: 'CNAME', value: 'web.example.test.', ttl: 3600 }]);
    });

    it('MX with priority, and a null MX as "."', async () => {
      const r = await ask({ host: 'example.test', types: ['MX'] });
      assert.deepEqual(r.records, [
        { type: 'MX', value: 'mail.example.test.', priority: 10, ttl: 3600 },
        { type: 'MX', value: 'mail2.example.test.', priority: 20, ttl: 3600 },
      ]);
      const nullMx = await ask({ host: 'nomail.example.test', types: ['MX'] });
      assert.deepEqual(nullMx.records, [{ type: 'MX', value: '.', priority: 0, ttl: 3600 }]);
    });

    it('NS', async () => {
      const r = await ask({ host: 'example.test', types: ['NS'] });
      assert.deepEqual(r.records, [
        { type: 'NS', value: 'ns1.example.test.', ttl: 3600 },
        { type: 'NS', value: 'ns2.example.test.', ttl: 3600 },
      ]);
    });

    it('PTR at a name', async () => {
      const r = await ask({ host: 'ptr.example.test', types: ['PTR'] });
      assert.deepEqual(r.records, [{ type: 'PTR', value: 'host1.example.test.', ttl: 3600 }]);
    });

    it('TXT joined with no separator, the strings kept in parts', async () => {
      const r = await ask({ host: 'example.test', types: ['TXT'] });
      assert.deepEqual(r.records, [
        {
          type: 'TXT',
          value: 'v=spf1 ip4:192.0.2.0/24 -all',
          parts: ['v=spf1 ip4:192.0.2.0/24 -all'],
          ttl: 3600,
        },
        { type: 'TXT', value: 'hello world', parts: ['hello ', 'world'], ttl: 3600 },
      ]);
    });

    it('a TXT too long for classic UDP comes in one EDNS0 datagram, its strings intact', async () => {
      const r = await ask({ host: 'long.example.test', types: ['TXT'] });
      assert.equal(r.records.length, 1);
      const [txt] = r.records;
      assert.equal(txt?.parts?.length, 3);
      assert.ok(txt.parts.every((p) => p.length <= 255));
      assert.equal(txt.value, txt.parts.join(''));
      assert.ok(txt.value.startsWith('v=DKIM1; k=rsa; p='));
      assert.ok(txt.value.length > 512);
      // RFC 6891: the query offers a 1232-byte payload, so no truncation and no TCP.
      assert.deepEqual(
        fx.queries.map((q) => q.transport),
        ['udp'],
      );
    });

    it('answers over 1232 bytes come over TCP, one connection for the whole look-up', async () => {
      const big = (n: number) => ['x'.repeat(250), 'y'.repeat(250), 'z'.repeat(n)];
      const own = await startDnsServer({
        records: [
          { name: 'big.test', type: 'TXT', data: big(200) },
          { name: 'big.test', type: 'TXT', data: big(201) },
          { name: 'big.test', type: 'TXT', data: big(202) },
          {
            name: 'big.test',
            type: 'CAA',
            data: { flags: 0, tag: 'issue', value: 'a'.repeat(700) },
          },
          {
            name: 'big.test',
            type: 'CAA',
            data: { flags: 0, tag: 'issue', value: 'b'.repeat(700) },
          },
          { name: 'big.test', type: 'A', data: '192.0.2.1' },
        ],
      });
      try {
        const r = await query(
          { host: 'big.test', types: ['TXT', 'CAA', 'A'], server: own.address },
          NORMAL,
        );
        assert.deepEqual(types(r.records), ['TXT', 'TXT', 'TXT', 'CAA', 'CAA', 'A']);
        assert.equal(r.records[2].parts?.[2], 'z'.repeat(202));
        assert.deepEqual(own.queries.map((q) => `${q.type}/${q.transport}`).sort(), [
          'A/udp',
          'CAA/tcp',
          'CAA/udp',
          'TXT/tcp',
          'TXT/udp',
        ]);
        assert.equal(own.tcpConnections, 1, 'the two truncated types share one TCP connection');
      } finally {
        await own.close();
      }
    });

    it('SRV with priority, weight, port and target', async () => {
      const r = await ask({ host: '_sip._tcp.example.test', types: ['SRV'] });
      assert.deepEqual(r.records, [
        {
          type: 'SRV',
          priority: 10,
          weight: 60,
          port: 5060,
          value: 'sip1.example.test.',
          ttl: 3600,
        },
        {
          type: 'SRV',
          priority: 10,
          weight: 40,
          port: 5060,
          value: 'sip2.example.test.',
          ttl: 3600,
        },
        {
          type: 'SRV',
          priority: 20,
          weight: 0,
          port: 5061,
          value: 'backup.example.net.',
          ttl: 3600,
        },
      ]);
    });

    it('SOA with names fully qualified and numbers in seconds', async () => {
      const r = await ask({ host: 'example.test', types: ['SOA'] });
      assert.deepEqual(r.records, [
        {
          type: 'SOA',
          mname: 'ns1.example.test.',
          rname: 'hostmaster.example.test.',
          serial: 2024010101,
          refresh: 7200,
          retry: 900,
          expire: 1209600,
          min_ttl: 300,
          ttl: 3600,
        },
      ]);
    });
  });

  describe('grouping and order', () => {
    it('asks all ten types in the seed order when none are given', async () => {
      const r = await ask({ host: 'example.test' });
      assert.deepEqual(types(r.records), [
        ...['A', 'A', 'AAAA', 'AAAA', 'CAA', 'CAA', 'CAA', 'MX', 'MX'],
        ...['NS', 'NS', 'TXT', 'TXT', 'SOA'],
      ]);
      assert.deepEqual(
        [...new Set(fx.queries.map((q) => q.type))].sort(),
        [...RECORD_TYPES].sort(),
      );
    });

    it('groups records in the requested order, types case-insensitive, repeats dropped', async () => {
      const r = await ask({ host: 'example.test', types: ['txt', 'Mx', 'a', 'MX'] });
      assert.deepEqual(types(r.records), ['TXT', 'TXT', 'MX', 'MX', 'A', 'A']);
      assert.equal(fx.queries.length, 3);
    });

    it('keeps the order the nameserver answered in, never sorting', async () => {
      const reversed: FixtureRecord[] = [
        { name: 'order.test', type: 'MX', data: { preference: 30, exchange: 'c.order.test' } },
        { name: 'order.test', type: 'MX', data: { preference: 10, exchange: 'a.order.test' } },
        { name: 'order.test', type: 'A', ttl: 5, data: '192.0.2.9' },
        { name: 'order.test', type: 'A', ttl: 5, data: '192.0.2.1' },
      ];
      const own = await startDnsServer({ records: reversed });
      try {
        const r = await query(
          { host: 'order.test', types: ['MX', 'A'], server: own.address },
          FAST,
        );
        assert.deepEqual(r.records, [
          { type: 'MX', value: 'c.order.test.', priority: 30, ttl: 300 },
          { type: 'MX', value: 'a.order.test.', priority: 10, ttl: 300 },
          { type: 'A', value: '192.0.2.9', ttl: 5 },
          { type: 'A', value: '192.0.2.1', ttl: 5 },
        ]);
      } finally {
        await own.close();
      }
    });

    it('asks the types in parallel', async () => {
      const slow = await startDnsServer({ records: loadFixtureZones(), delayMs: 150 });
      try {
        const started = Date.now();
        await query({ host: 'example.test', server: slow.address }, { timeoutMs: 1000, tries: 1 });
        // ten answers of 150 ms each one after another would take 1500 ms
        assert.ok(Date.now() - started < 600, `took ${Date.now() - started} ms`);
      } finally {
        await slow.close();
      }
    });
  });

  describe('names', () => {
    it('follows a CNAME chain for the other types; each record keeps its own ttl', async () => {
      const r = await ask({ host: 'www.example.test', types: ['A', 'CNAME', 'MX', 'SOA'] });
      assert.deepEqual(r, {
        records: [
          { name: 'host1.example.test.', type: 'A', value: '192.0.2.30', ttl: 60 },
          { name: 'host1.example.test.', type: 'A', value: '192.0.2.31', ttl: 60 },
          { type: 'CNAME', value: 'web.example.test.', ttl: 3600 },
        ],
        status: 'NOERROR',
        chain: [
          { name: 'www.example.test.', type: 'CNAME', value: 'web.example.test.', ttl: 3600 },
          { name: 'web.example.test.', type: 'CNAME', value: 'host1.example.test.', ttl: 120 },
        ],
      });
    });

    it('converts an IDN to punycode and accepts a trailing dot and any case', async () => {
      for (const host of [
        'bücher.example.test',
        'BÜCHER.Example.Test.',
        'xn--bcher-kva.example.test',
      ]) {
        const r = await ask({ host, types: ['A'] });
        assert.deepEqual(r.records, [{ type: 'A', value: '192.0.2.80', ttl: 3600 }], host);
      }
      assert.ok(fx.queries.every((q) => q.name.toLowerCase() === 'xn--bcher-kva.example.test'));
    });

    it('accepts underscore labels', async () => {
      const r = await ask({ host: '_dmarc.example.test', types: ['TXT'] });
      assert.equal(r.records[0]?.value, 'v=DMARC1; p=reject');
    });

    it('answers a wildcard', async () => {
      const r = await ask({ host: 'anything.wild.example.test', types: ['A', 'TXT'] });
      assert.deepEqual(r.records, [
        { type: 'A', value: '192.0.2.50', ttl: 3600 },
        { type: 'TXT', value: 'from the wildcard', parts: ['from the wildcard'], ttl: 3600 },
      ]);
    });

    it('asks PTR at the reverse name of an IPv4 address', async () => {
      const r = await ask({ host: '192.0.2.30', types: ['PTR'] });
      assert.deepEqual(r.records, [
        { type: 'PTR', value: 'host1.example.test.', ttl: 3600 },
        { type: 'PTR', value: 'web.example.test.', ttl: 3600 },
      ]);
      assert.equal(fx.queries[0]?.name, '30.2.0.192.in-addr.arpa');
    });

    it('asks PTR at the reverse name of an IPv6 address, bracketed or not', async () => {
      for (const host of ['2001:db8::30', '[2001:DB8::30]']) {
        const r = await ask({ host, types: ['PTR'] });
        assert.deepEqual(
          r.records,
          [{ type: 'PTR', value: 'host1.example.test.', ttl: 3600 }],
          host,
        );
      }
    });

    it('asks every type of an IP address at its reverse name', async () => {
      const r = await ask({ host: '192.0.2.1' });
      assert.deepEqual(r.records, [{ type: 'PTR', value: 'ns1.example.test.', ttl: 3600 }]);
      assert.ok(fx.queries.every((q) => q.name === '1.2.0.192.in-addr.arpa'));
    });
  });

  describe('empty answers', () => {
    it('NXDOMAIN: no records and status NXDOMAIN', async () => {
      const r = await ask({ host: 'nope.example.test' });
      assert.deepEqual(r, { records: [], status: 'NXDOMAIN' });
    });

    it('NODATA: an existing name without the type is NOERROR with no records', async () => {
      const r = await ask({ host: 'mail.example.test', types: ['MX', 'TXT', 'CAA', 'SRV', 'SOA'] });
      assert.deepEqual(r, { records: [], status: 'NOERROR' });
    });

    it('an empty non-terminal is NODATA, not NXDOMAIN', async () => {
      const r = await ask({ host: 'empty.example.test' });
      assert.deepEqual(r, { records: [], status: 'NOERROR' });
    });

    it('a CNAME to nowhere gives the CNAME and NXDOMAIN for the rest', async () => {
      const onlyA = await ask({ host: 'dangling.example.test', types: ['A'] });
      const chain = [
        {
          name: 'dangling.example.test.',
          type: 'CNAME',
          value: 'missing.example.test.',
          ttl: 3600,
        },
      ];
      assert.deepEqual(onlyA, { records: [], status: 'NXDOMAIN', chain });
      const both = await ask({ host: 'dangling.example.test', types: ['CNAME', 'A'] });
      assert.deepEqual(both, {
        records: [{ type: 'CNAME', value: 'missing.example.test.', ttl: 3600 }],
        status: 'NOERROR',
        chain,
      });
    });
  });

  describe('failures', () => {
    it('SERVFAIL and REFUSED for some types go in errors, the rest answers', async () => {
      behaviour = (q) => (q.type === 'MX' ? 'servfail' : q.type === 'TXT' ? 'refused' : undefined);
      const r = await ask({ host: 'example.test', types: ['A', 'MX', 'TXT'] });
      assert.deepEqual(types(r.records), ['A', 'A']);
      assert.equal(r.status, 'NOERROR');
      assert.deepEqual(r.errors, [
        { type: 'MX', code: 'servfail' },
        { type: 'TXT', code: 'refused' },
      ]);
    });

    it('a type that never answers is upstream_timeout within timeout × tries', async () => {
      behaviour = (q) => (q.type === 'AAAA' ? 'timeout' : undefined);
      const started = Date.now();
      const r = await ask({ host: 'example.test', types: ['A', 'AAAA'] }, FAST);
      const took = Date.now() - started;
      assert.deepEqual(r.errors, [{ type: 'AAAA', code: 'upstream_timeout' }]);
      assert.deepEqual(types(r.records), ['A', 'A']);
      assert.ok(took >= BOUND_MS - 20 && took < BOUND_MS + SLACK_MS, `took ${took} ms`);
      assert.equal(fx.queries.filter((q) => q.type === 'AAAA').length, 2, 'two tries');
    });

    it('NXDOMAIN with a failed type keeps both facts', async () => {
      behaviour = (q) => (q.type === 'MX' ? 'servfail' : undefined);
      const r = await ask({ host: 'nope.example.test', types: ['A', 'MX'] });
      assert.deepEqual(r, {
        records: [],
        status: 'NXDOMAIN',
        errors: [{ type: 'MX', code: 'servfail' }],
      });
    });

    const allFail: Array<[Behaviour, string, string]> = [
      ['servfail', 'upstream_error', 'servfail'],
      ['refused', 'upstream_error', 'refused'],
      ['timeout', 'upstream_timeout', 'upstream_timeout'],
    ];
    for (const [how, code, perType] of allFail) {
      it(`every type ${how} is a ${code} problem`, async () => {
        behaviour = () => how;
        const started = Date.now();
        const err = await rejects(ask({ host: 'example.test', types: ['A', 'MX'] }, FAST), code);
        assert.deepEqual((err.cause as AllTypesFailed).failures, [
          { type: 'A', code: perType },
          { type: 'MX', code: perType },
        ]);
        assert.ok(Date.now() - started < BOUND_MS + SLACK_MS);
      });
    }

    it('timeouts mixed with SERVFAIL are upstream_error', async () => {
      behaviour = (q) => (q.type === 'A' ? 'timeout' : 'servfail');
      await rejects(ask({ host: 'example.test', types: ['A', 'MX'] }, FAST), 'upstream_error');
    });

    it('a closed port is connection_refused for every type: upstream_error', async () => {
      const port = await closedUdpPort();
      const started = Date.now();
      const err = await rejects(
        query({ host: 'example.test', types: ['A', 'NS'], server: `127.0.0.1:${port}` }, FAST),
        'upstream_error',
      );
      assert.deepEqual((err.cause as AllTypesFailed).failures, [
        { type: 'A', code: 'connection_refused' },
        { type: 'NS', code: 'connection_refused' },
      ]);
      assert.ok(Date.now() - started < BOUND_MS + SLACK_MS);
    });

    it('a truncated UDP answer is asked again over TCP', async () => {
      behaviour = (q) => (q.type === 'A' ? 'truncate' : undefined);
      const r = await ask({ host: 'example.test', types: ['A', 'NS'] });
      assert.deepEqual(types(r.records), ['A', 'A', 'NS', 'NS']);
      assert.deepEqual(
        fx.queries.filter((q) => q.type === 'A').map((q) => q.transport),
        ['udp', 'tcp'],
      );
      assert.deepEqual(
        fx.queries.filter((q) => q.type === 'NS').map((q) => q.transport),
        ['udp'],
      );
    });
  });

  describe('cancellation', () => {
    it('an aborted signal rejects at once with cancelled and asks nothing', async () => {
      const controller = new AbortController();
      controller.abort();
      await rejects(
        ask({ host: 'example.test' }, { ...FAST, signal: controller.signal }),
        'cancelled',
      );
      assert.equal(fx.queries.length, 0);
    });

    it('aborting mid-flight rejects promptly and stops the retries', async () => {
      behaviour = () => 'timeout';
      const controller = new AbortController();
      let abortedAt = 0;
      setTimeout(() => {
        abortedAt = Date.now();
        controller.abort();
      }, 30);
      await rejects(
        ask(
          { host: 'example.test', types: ['A', 'MX'] },
          { timeoutMs: 300, tries: 3, signal: controller.signal },
        ),
        'cancelled',
      );
      // Well before the first retry (300 ms) would have gone out.
      assert.ok(Date.now() - abortedAt < 250, `took ${Date.now() - abortedAt} ms after the abort`);
      // the resolver is cancelled: no second try reaches the server
      await new Promise((r) => setTimeout(r, 450));
      assert.equal(fx.queries.length, 2);
    });
  });

  describe('invalid input', () => {
    const badHosts = [
      '',
      '   ',
      'a..b',
      `${'x'.repeat(64)}.test`,
      `${'abcdefghi.'.repeat(26)}test`,
      'bad host',
      'a\u0001b',
    ];
    for (const host of badHosts) {
      it(`invalid_host for ${JSON.stringify(host.slice(0, 20))}`, async () => {
        await rejects(ask({ host, types: ['A'] }), 'invalid_host');
        assert.equal(fx.queries.length, 0);
      });
    }

    it('invalid_type for an unknown type, before asking anything', async () => {
      await rejects(ask({ host: 'example.test', types: ['A', 'BOGUS'] }), 'invalid_type');
      await rejects(ask({ host: 'example.test', types: ['ANY'] }), 'invalid_type');
      assert.equal(fx.queries.length, 0);
    });

    it('a lone string of types is one type; a server that is not text is invalid_server', async () => {
      const r = await ask({ host: 'example.test', types: 'ns' as unknown as string[] });
      assert.deepEqual(types(r.records), ['NS', 'NS']);
      await rejects(
        query({ host: 'example.test', server: 53 as unknown as string }, FAST),
        'invalid_server',
      );
    });

    it('invalid_argument for nonsense timeouts', async () => {
      await rejects(ask({ host: 'example.test' }, { timeoutMs: 0 }), 'invalid_argument');
      await rejects(ask({ host: 'example.test' }, { tries: 1.5 }), 'invalid_argument');
    });
  });

  describe('server forms', () => {
    it('IPv4 with a port', async () => {
      const r = await query(
        { host: 'example.test', types: ['NS'], server: `127.0.0.1:${fx.port}` },
        FAST,
      );
      assert.equal(r.records.length, 2);
    });

    it('IPv6 with a port, bracketed', async () => {
      const six = await startDnsServer({ records: loadFixtureZones(), host: '::1' });
      try {
        assert.equal(six.address, `[::1]:${six.port}`);
        const r = await query({ host: 'example.test', types: ['AAAA'], server: six.address }, FAST);
        assert.equal(r.records.length, 2);
        assert.equal(six.queries.length, 1);
      } finally {
        await six.close();
      }
    });

    it('a nameserver host name, resolved by the system resolver (/etc/hosts)', async () => {
      const r = await query(
        { host: 'example.test', types: ['NS'], server: `localhost:${fx.port}` },
        FAST,
      );
      assert.equal(r.records.length, 2);
    });

    it('a nameserver host name, resolved by an injected look-up', async () => {
      const asked: string[] = [];
      const lookup = (name: string) => {
        asked.push(name);
        return Promise.resolve(['127.0.0.1']);
      };
      const r = await query(
        { host: 'example.test', types: ['NS'], server: `NS1.Fixture.test:${fx.port}` },
        { ...FAST, lookup },
      );
      assert.equal(r.records.length, 2);
      assert.deepEqual(asked, ['ns1.fixture.test']);
    });

    it('a nameserver name that does not resolve is invalid_server', async () => {
      const lookup = () => Promise.reject(Object.assign(new Error('nope'), { code: 'ENOTFOUND' }));
      await rejects(
        query({ host: 'example.test', server: 'ns.nowhere.test' }, { ...FAST, lookup }),
        'invalid_server',
      );
      await rejects(
        query(
          { host: 'example.test', server: 'ns.nowhere.test' },
          { ...FAST, lookup: () => Promise.resolve([]) },
        ),
        'invalid_server',
      );
    });

    it('a nameserver name whose look-up fails otherwise is upstream_error', async () => {
      const lookup = () => Promise.reject(Object.assign(new Error('boom'), { code: 'EAI_FAIL' }));
      await rejects(
        query({ host: 'example.test', server: 'ns.broken.test' }, { ...FAST, lookup }),
        'upstream_error',
      );
    });

    it('a nameserver name whose look-up hangs is upstream_timeout within the bound', async () => {
      const lookup = () => new Promise<string[]>(() => undefined);
      const started = Date.now();
      await rejects(
        query({ host: 'example.test', server: 'ns.slow.test' }, { ...FAST, lookup }),
        'upstream_timeout',
      );
      assert.ok(Date.now() - started < BOUND_MS + SLACK_MS);
    });

    it('cancelling during the nameserver name look-up rejects with cancelled', async () => {
      const controller = new AbortController();
      const lookup = () => new Promise<string[]>(() => undefined);
      setTimeout(() => controller.abort(), 20);
      await rejects(
        query(
          { host: 'example.test', server: 'ns.slow.test' },
          { ...FAST, lookup, signal: controller.signal },
        ),
        'cancelled',
      );
    });

    const badServers = [
      'not a server',
      '1.2.3.4:99999',
      '1.2.3.4:0',
      '300.1.1.1',
      '[1.2.3.4]:53',
      'http://1.1.1.1',
      '[::1]:x',
      'a..b',
    ];
    for (const server of badServers) {
      it(`invalid_server for ${JSON.stringify(server)}`, async () => {
        await rejects(query({ host: 'example.test', server }, FAST), 'invalid_server');
      });
    }
  });
});
