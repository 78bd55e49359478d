import assert from 'node:assert/strict';
import { senderPolicyRanges } from '../../../../src/engine/mail/spf';
import { checkHost } from '../../../../src/engine/mail/spf-check';
import { LookupError } from '../../../../src/contract/errors';
import type { SpfNode, SpfRoot } from '../../../../src/contract/shapes';
import { startDnsServer, type DnsFixture, type FixtureRecord } from '../../../support/dns-server';

const txt = (name: string, ...strings: string[]): FixtureRecord => ({
  name,
  type: 'TXT',
  data: strings,
});
const a = (name: string, address: string): FixtureRecord => ({ name, type: 'A', data: address });

const RECORDS: FixtureRecord[] = [
  // includes three deep
  txt('nested.test', 'v=spf1 ip4:192.0.2.1 ip6:2001:DB8::1/48 include:l1.nested.test -all'),
  txt('l1.nested.test', 'v=spf1 ip4:198.51.100.77/24 include:l2.nested.test ~all'),
  txt('l2.nested.test', 'v=spf1 include:l3.nested.test ?all'),
  txt('l3.nested.test', 'v=spf1 ip4:203.0.113.7 -all'),
  // redirect chain
  txt('redir.test', 'v=spf1 redirect=r2.test'),
  txt('r2.test', 'v=spf1 ip4:192.0.2.9 redirect=r3.test'),
  txt('r3.test', 'v=spf1 -all'),
  // loops
  txt('loop.test', 'v=spf1 include:loop2.test -all'),
  txt('loop2.test', 'v=spf1 include:loop.test -all'),
  txt('rloop.test', 'v=spf1 redirect=rloop.test'),
  // missing include targets: one NXDOMAIN, one with only a non-SPF TXT
  txt('missing.test', 'v=spf1 include:nothere.test include:txtonly.test -all'),
  txt('txtonly.test', 'google-site-verification=abc'),
  // several SPF records
  txt('several.test', 'v=spf1 -all'),
  txt('several.test', 'v=spf1 ip4:192.0.2.1 -all'),
  // eleven look-ups
  txt(
    'eleven.test',
    `v=spf1 ${Array.from({ length: 11 }, (_, i) => `a:h${i + 1}.eleven.test`).join(' ')} -all`,
  ),
  ...Array.from({ length: 11 }, (_, i) => a(`h${i + 1}.eleven.test`, `192.0.2.${i + 1}`)),
  // void look-ups
  txt('void.test', 'v=spf1 a:v1.void.test a:v2.void.test mx:v3.void.test -all'),
  // an mx term with two targets that have no address: two void queries; exists counts too
  txt('mxvoid.test', 'v=spf1 mx:mxs.void.test exists:e.void.test ip4:192.0.2.1 -all'),
  { name: 'mxs.void.test', type: 'MX', data: { preference: 10, exchange: 'gone1.void.test' } },
  { name: 'mxs.void.test', type: 'MX', data: { preference: 20, exchange: 'gone2.void.test' } },
  { name: 'mxs.void.test', type: 'MX', data: { preference: 30, exchange: 'live.void.test' } },
  a('live.void.test', '192.0.2.30'),
  txt('mxlive.test', 'v=spf1 mx:mxok.void.test -all'),
  { name: 'mxok.void.test', type: 'MX', data: { preference: 10, exchange: 'live.void.test' } },
  txt('mxmany.test', 'v=spf1 mx:many.void.test -all'),
  ...Array.from({ length: 11 }, (_, i): FixtureRecord => ({
    name: 'many.void.test',
    type: 'MX',
    data: { preference: i, exchange: 'live.void.test' },
  })),
  // a long policy split over character-strings
  txt('long.test', 'v=spf1 ip4:192.0.2.1 ip4:192.0.2.2 ', 'ip4:192.0.2.3 -all'),
  txt('syntax.test', 'v=spf1 ip4:999.1.1.1 frobnicate -all'),
  txt('both.test', 'v=spf1 -all redirect=r3.test'),
  txt('lax.test', 'v=spf1 ptr +all'),
  txt('macro.test', 'v=spf1 include:%{d}.spf.test -all'),
  txt('nospf.test', 'hello world'),
  txt('failing.test', 'v=spf1 include:servfail.inc.test -all'),
  txt('dup.test', 'v=spf1 include:r3.test include:r3.test -all'),
];

function find(node: { includes: SpfNode[] }, domain: string): SpfNode | undefined {
  for (const child of node.includes) {
    if (child.domain === domain) return child;
    const deeper = find(child, domain);
    if (deeper) return deeper;
  }
  return undefined;
}

describe('engine/dns/spf senderPolicyRanges', () => {
  let dns: DnsFixture;
  const opts = { timeoutMs: 300, tries: 1 };
  const tree = (host: string, extra: object = {}): Promise<SpfRoot> =>
    senderPolicyRanges({ host, server: dns.address }, { ...opts, ...extra });

  before(async () => {
    dns = await startDnsServer({
      records: RECORDS,
      behaviour: (q) =>
        q.name.startsWith('servfail.')
          ? 'servfail'
          : q.name.startsWith('silent.')
            ? 'timeout'
            : undefined,
    });
  });
  after(() => dns.close());
  beforeEach(() => {
    dns.queries.length = 0;
  });

  it('builds the tree of nested includes three deep, ranges as CIDR', async () => {
    const root = await tree('nested.test');
    assert.equal(
      root.policy,
      'v=spf1 ip4:192.0.2.1 ip6:2001:DB8::1/48 include:l1.nested.test -all',
    );
    assert.deepEqual(root.ips, [
      { version: 4, cidr_block: '192.0.2.1/32' },
      { version: 6, cidr_block: '2001:db8::/48' },
    ]);
    const l1 = root.includes[0];
    assert.equal(l1.domain, 'l1.nested.test');
    assert.equal(l1.via, 'include');
    assert.deepEqual(l1.ips, [{ version: 4, cidr_block: '198.51.100.0/24' }]);
    const l3 = find(root, 'l3.nested.test')!;
    assert.equal(l3.policy, 'v=spf1 ip4:203.0.113.7 -all');
    assert.deepEqual(l3.includes, []);
    assert.equal(root.query_count, 4);
    assert.equal(dns.queries.length, 4);
    assert.equal(root.lookup_count, 3);
    assert.equal(root.void_lookup_count, 0);
    assert.deepEqual(root.problems, []);
  });

  it('follows a redirect chain as child nodes', async () => {
    const root = await tree('redir.test');
    const r2 = root.includes[0];
    assert.equal(r2.domain, 'r2.test');
    assert.equal(r2.via, 'redirect');
    assert.equal(r2.includes[0].domain, 'r3.test');
    assert.equal(r2.includes[0].via, 'redirect');
    assert.equal(root.lookup_count, 2);
  });

  it('reports include and redirect loops without following them', async () => {
    const root = await tree('loop.test');
    assert.equal(root.includes[0].domain, 'loop2.test');
    assert.deepEqual(root.includes[0].includes, []);
    const p = root.problems!.find((x) => x.code === 'include_loop')!;
    assert.equal(p.domain, 'loop2.test');
    assert.equal(p.term, 'include:loop.test');
    const r = await tree('rloop.test');
    assert.equal(r.problems![0].code, 'redirect_loop');
    assert.deepEqual(r.includes, []);
  });

  it('reports include targets without an SPF record, counting the NXDOMAIN as void', async () => {
    const root = await tree('missing.test');
    const codes = root.problems!.map((p) => `${p.code} ${p.term}`);
    assert.deepEqual(codes, [
      'missing_include_target include:nothere.test',
      'missing_include_target include:txtonly.test',
    ]);
    assert.equal(root.includes.length, 2);
    assert.equal(root.includes[0].policy, '');
    assert.equal(root.void_lookup_count, 1);
  });

  it('reports several SPF records at a name', async () => {
    const root = await tree('several.test');
    assert.equal(root.problems![0].code, 'several_records');
    assert.equal(root.problems![0].domain, 'several.test');
  });

  it('counts eleven look-ups as over the limit', async () => {
    const root = await tree('eleven.test');
    assert.equal(root.lookup_count, 11);
    assert.ok(root.problems!.some((p) => p.code === 'too_many_lookups'));
    assert.equal(root.void_lookup_count, 0);
  });

  it('counts void look-ups of a and mx terms', async () => {
    const root = await tree('void.test');
    assert.equal(root.void_lookup_count, 3);
    assert.ok(root.problems!.some((p) => p.code === 'too_many_void_lookups'));
  });

  it('counts each address question of an mx term that finds nothing, as check_host does', async () => {
    const root = await tree('mxvoid.test');
    assert.equal(root.void_lookup_count, 3);
    const checked = await checkHost(
      { ip: '192.0.2.99', domain: 'mxvoid.test', server: dns.address },
      { timeoutMs: 300, tries: 1 },
    );
    assert.deepEqual([checked.result, checked.void_lookups], ['permerror', 3]);
    assert.ok(root.problems!.some((p) => p.code === 'too_many_void_lookups'));
    const live = await tree('mxlive.test');
    assert.equal(live.void_lookup_count, 0);
    const many = await tree('mxmany.test');
    assert.deepEqual(
      many.problems!.map((p) => [p.code, p.term]),
      [['too_many_mx', 'mx:many.void.test']],
    );
  });

  it('joins a policy split over several character-strings', async () => {
    const root = await tree('long.test');
    assert.equal(root.policy, 'v=spf1 ip4:192.0.2.1 ip4:192.0.2.2 ip4:192.0.2.3 -all');
    assert.equal(root.ips.length, 3);
  });

  it('flags syntax errors, redirect next to all, ptr, +all and macro targets', async () => {
    const syntax = await tree('syntax.test');
    assert.deepEqual(
      syntax.problems!.map((p) => [p.code, p.term]),
      [
        ['syntax_error', 'ip4:999.1.1.1'],
        ['syntax_error', 'frobnicate'],
      ],
    );
    const both = await tree('both.test');
    assert.equal(both.problems![0].code, 'redirect_with_all');
    assert.deepEqual(both.includes, []);
    assert.equal(both.lookup_count, 0);
    const lax = await tree('lax.test');
    assert.deepEqual(
      lax.problems!.map((p) => p.code),
      ['deprecated_ptr', 'pass_all'],
    );
    const macro = await tree('macro.test');
    assert.equal(macro.problems![0].code, 'macro_target');
  });

  it('reports a failed look-up of an include target on that node', async () => {
    const root = await tree('failing.test');
    assert.equal(root.includes[0].policy, '');
    assert.deepEqual(
      root.problems!.map((p) => [p.code, p.domain, p.term]),
      [['lookup_failed', 'servfail.inc.test', 'include:servfail.inc.test']],
    );
  });

  it('asks a name included twice once', async () => {
    const root = await tree('dup.test');
    assert.equal(root.includes.length, 2);
    assert.equal(root.query_count, 2);
    assert.equal(root.lookup_count, 2);
  });

  it('turns hitting a bound into a problem', async () => {
    const deep = await tree('nested.test', { limits: { maxDepth: 1 } });
    assert.equal(deep.includes[0].includes.length, 0);
    assert.equal(deep.problems![0].code, 'depth_limit');
    const few = await tree('nested.test', { limits: { maxQueries: 2 } });
    assert.equal(few.query_count, 2);
    assert.equal(few.problems![0].code, 'query_limit');
  });

  it('cuts the tree at its time bound', async () => {
    const slow = await startDnsServer({ records: RECORDS, delayMs: 60 });
    try {
      const root = await senderPolicyRanges(
        { host: 'nested.test', server: slow.address },
        { ...opts, limits: { timeoutMs: 150 } },
      );
      assert.ok(root.problems!.some((p) => p.code === 'time_limit'));
      assert.ok(root.query_count < 4);
    } finally {
      await slow.close();
    }
  });

  it('is not_found when the host has no SPF record or does not exist', async () => {
    for (const host of ['nospf.test', 'nothere.test']) {
      await assert.rejects(tree(host), (e: LookupError) => e.code === 'not_found');
    }
  });

  it('reports DNS failures at the host as upstream errors', async () => {
    await assert.rejects(tree('servfail.test'), (e: LookupError) => e.code === 'upstream_error');
    await assert.rejects(tree('silent.test'), (e: LookupError) => e.code === 'upstream_timeout');
  });

  it('rejects invalid hosts and honours cancellation', async () => {
    await assert.rejects(tree('bad..name'), (e: LookupError) => e.code === 'invalid_host');
    const ac = new AbortController();
    ac.abort();
    await assert.rejects(
      tree('nested.test', { signal: ac.signal }),
      (e: LookupError) => e.code === 'cancelled',
    );
  });
});
