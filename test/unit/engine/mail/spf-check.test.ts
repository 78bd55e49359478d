import assert from 'node:assert/strict';
import { checkHost } from '../../../../src/engine/mail/spf-check';
import { isWireName } from '../../../../src/engine/dns/raw-query';
import { LookupError } from '../../../../src/contract/errors';
import { startDnsServer, type DnsFixture, type FixtureRecord } from '../../../support/dns-server';

const txt = (name: string, text: string): FixtureRecord => ({ name, type: 'TXT', data: [text] });

const RECORDS: FixtureRecord[] = [
  txt('corp.test', 'v=spf1 ip4:192.0.2.0/24 include:esp.test mx/30 ~all exp=why.corp.test'),
  txt('why.corp.test', "%{i} is not one of %{d}'s senders"),
  txt('esp.test', 'v=spf1 ip6:2001:db8::/32 a:out.esp.test -all exp=esp-why.test'),
  txt('esp-why.test', 'never shown'),
  { name: 'out.esp.test', type: 'A', data: '198.51.100.5' },
  { name: 'corp.test', type: 'MX', data: { preference: 10, exchange: 'mx.corp.test' } },
  { name: 'mx.corp.test', type: 'A', data: '203.0.113.9' },
  txt('strict.test', 'v=spf1 -all exp=why.corp.test'),
  txt('slow.test', 'v=spf1 include:silent.test -all'),
  txt('hosed.test', 'v=spf1 ip4:192.0.2.1 include:missing.test -all'),
  ...Array.from({ length: 11 }, (_, i): FixtureRecord => ({
    name: `x${i}.test`,
    type: 'A',
    data: '127.0.0.2',
  })),
  txt('voids.test', 'v=spf1 exists:v1.test exists:v2.test exists:v3.test -all'),
  // void look-ups behind mx and ptr terms (RFC 7208 section 4.6.4)
  { name: 'mxs.test', type: 'MX', data: { preference: 10, exchange: 'gone1.mxs.test' } },
  { name: 'mxs.test', type: 'MX', data: { preference: 20, exchange: 'gone2.mxs.test' } },
  { name: 'mxs.test', type: 'MX', data: { preference: 30, exchange: 'live.mxs.test' } },
  { name: 'live.mxs.test', type: 'A', data: '192.0.2.200' },
  txt('mx-one-void.test', 'v=spf1 mx:mxs.test -all'),
  txt('mx-third-void.test', 'v=spf1 exists:v1.test exists:v2.test mx:mxs.test -all'),
  txt('mx-second-void.test', 'v=spf1 exists:v1.test mx:mxs.test -all'),
  // an answer that holds only a CNAME chain has an answer count above 0: not void
  { name: 'alias.test', type: 'CNAME', data: 'nothing.alias-target.test' },
  txt('cname-void.test', 'v=spf1 exists:v1.test exists:v2.test a:alias.test -all'),
  { name: '78.2.0.192.in-addr.arpa', type: 'PTR', data: 'ghost.ptr.test' },
  { name: '78.2.0.192.in-addr.arpa', type: 'PTR', data: 'good.ptr.test' },
  { name: 'good.ptr.test', type: 'A', data: '192.0.2.78' },
  txt('ptr-one-void.test', 'v=spf1 ptr:ptr.test -all'),
  txt('ptr-third-void.test', 'v=spf1 exists:v1.test exists:v2.test ptr:ptr.test -all'),
  txt('ptr-nx.test', 'v=spf1 exists:v1.test ptr -all'),
  txt('ptr-nx-third.test', 'v=spf1 exists:v1.test ptr exists:v2.test -all'),
  txt('p-macro.test', 'v=spf1 exists:v1.test exists:v2.test a:%{p}.host.test -all'),
  { name: 'unknown.host.test', type: 'A', data: '192.0.2.79' },
  // MX hosts after one that matches, and exp='s %{p} (the client 192.0.2.201 has no PTR record)
  { name: 'mxs-first.test', type: 'MX', data: { preference: 10, exchange: 'live.mxs.test' } },
  { name: 'mxs-first.test', type: 'MX', data: { preference: 20, exchange: 'gone1.mxs.test' } },
  { name: 'mxs-first.test', type: 'MX', data: { preference: 30, exchange: 'gone2.mxs.test' } },
  txt('mx-match-first.test', 'v=spf1 exists:v1.test mx:mxs-first.test -all'),
  txt('exp-p.test', 'v=spf1 exists:v1.test exists:v2.test +all exp=%{p}.why.test'),
  txt('exp-p-one.test', 'v=spf1 exists:v1.test +all exp=%{p}.why.test'),
  txt('exp-p-term.test', 'v=spf1 exists:v1.test exists:%{p}.x1.test -all exp=%{p}.why.test'),
  { name: 'unknown.x1.test', type: 'A', data: '127.0.0.2' },
  txt('exp-text-p.test', 'v=spf1 exists:v1.test exists:v2.test -all exp=text-p.why.test'),
  txt('text-p.why.test', 'not from %{p}'),
  txt('ten.test', `v=spf1 ${Array.from({ length: 10 }, (_, i) => `a:x${i}.test`).join(' ')} +all`),
  txt(
    'eleven.test',
    `v=spf1 ${Array.from({ length: 11 }, (_, i) => `a:x${i}.test`).join(' ')} +all`,
  ),
];

describe('engine/dns/spf-check checkHost', () => {
  let dns: DnsFixture;
  const opts = { timeoutMs: 200, tries: 1 };
  const check = (ip: string, domain: string, extra: { sender?: string; helo?: string } = {}) =>
    checkHost({ ip, domain, server: dns.address, ...extra }, opts);

  before(async () => {
    dns = await startDnsServer({
      records: RECORDS,
      behaviour: (q) => (q.name.startsWith('silent.') ? 'timeout' : undefined),
    });
  });
  after(() => dns.close());

  it('passes an address in ip4: and names the deciding term', async () => {
    const r = await check('192.0.2.44', 'corp.test');
    assert.equal(r.result, 'pass');
    assert.equal(r.mechanism, 'ip4:192.0.2.0/24');
    assert.equal(r.lookups, 0);
  });

  it('passes through include, a and mx with CIDR lengths', async () => {
    const viaInclude = await check('198.51.100.5', 'corp.test');
    assert.equal(viaInclude.result, 'pass');
    assert.equal(viaInclude.mechanism, 'include:esp.test');
    const v6 = await check('2001:db8::25', 'corp.test');
    assert.equal(v6.result, 'pass');
    const viaMx = await check('203.0.113.10', 'corp.test');
    assert.equal(viaMx.mechanism, 'mx/30');
    assert.equal(viaMx.lookups, 3);
  });

  it('gives softfail from ~all and the exp= text only on fail', async () => {
    const soft = await check('203.0.113.200', 'corp.test');
    assert.equal(soft.result, 'softfail');
    assert.equal(soft.explanation, undefined);
    const fail = await check('203.0.113.200', 'strict.test', { sender: 'a@strict.test' });
    assert.equal(fail.result, 'fail');
    assert.equal(fail.explanation, "203.0.113.200 is not one of strict.test's senders");
  });

  it('gives none, temperror and permerror where RFC 7208 says', async () => {
    assert.equal((await check('192.0.2.1', 'nothing.test')).result, 'none');
    assert.equal((await check('192.0.2.1', 'single')).result, 'none');
    const temp = await check('192.0.2.99', 'slow.test');
    assert.equal(temp.result, 'temperror');
    assert.match(temp.reason!, /silent\.test/);
    const perm = await check('192.0.2.99', 'hosed.test');
    assert.equal(perm.result, 'permerror');
    const ten = await check('192.0.2.99', 'ten.test');
    assert.deepEqual([ten.result, ten.lookups], ['pass', 10]);
    const eleven = await check('192.0.2.99', 'eleven.test');
    assert.deepEqual([eleven.result, eleven.lookups], ['permerror', 11]);
    const voids = await check('192.0.2.99', 'voids.test');
    assert.equal(voids.result, 'permerror');
    assert.equal(voids.void_lookups, 3);
  });

  it("counts the void hosts after an MX host that matched, and says Mail::SPF's verdict", async () => {
    // pyspf looks up every host; Mail::SPF stops at the first that matches (live.mxs.test)
    const r = await check('192.0.2.200', 'mx-match-first.test');
    assert.deepEqual([r.result, r.void_lookups], ['permerror', 3]);
    const line = r.problems?.find((p) => /Mail::SPF stops at the first MX host/.test(p));
    assert.match(line ?? '', /^2 of the void look-ups were .* mx mechanism matching there/);
    assert.ok(!r.problems?.some((p) => /pyspf or Mail::SPF count the queries/.test(p)));
  });

  it("counts exp='s %{p} once whatever the result, as pyspf and Mail::SPF do", async () => {
    const ip = '192.0.2.201';
    // two void terms and the client's PTR question: permerror with both libraries
    const pass = await check(ip, 'exp-p.test');
    assert.deepEqual([pass.result, pass.void_lookups, pass.void_terms], ['permerror', 3, 2]);
    assert.match(pass.problems?.join('\n') ?? '', /1 of the void look-ups was of validating/);
    const within = await check(ip, 'exp-p-one.test');
    assert.deepEqual([within.result, within.void_lookups, within.problems], ['pass', 2, undefined]);
    // a %{p} term counted them already: pyspf validates once a check, Mail::SPF again for exp=
    const term = await check(ip, 'exp-p-term.test');
    assert.deepEqual([term.result, term.void_lookups], ['pass', 2]);
    assert.match(
      term.problems?.join('\n') ?? '',
      /Mail::SPF expands it whatever the result .* receivers running it give permerror/,
    );
    // the %{p} of a fail's explanation text: pyspf counts it, Mail::SPF throws while explaining
    const text = await check(ip, 'exp-text-p.test', { sender: 'a@exp-text-p.test' });
    assert.deepEqual([text.result, text.explanation], ['fail', 'not from unknown']);
    assert.match(text.problems?.join('\n') ?? '', /pyspf expands it .* give permerror/);
  });

  it('counts void look-ups per DNS query, as pyspf and Mail::SPF do (4.6.4)', async () => {
    // Two of three MX targets have no address: two void queries of one term, within the limit.
    const mx = await check('192.0.2.200', 'mx-one-void.test');
    assert.deepEqual([mx.result, mx.void_lookups, mx.void_terms], ['pass', 2, 1]);
    assert.equal(mx.problems, undefined);
    const mx3 = await check('192.0.2.200', 'mx-third-void.test');
    assert.deepEqual([mx3.result, mx3.void_lookups], ['permerror', 3]);
    assert.match(mx3.reason!, /More than 2 void look-ups/);
    // Three void queries in two terms: receivers give permerror; the section's "terms" would
    // not, and a problem line says so.
    const mx2 = await check('192.0.2.200', 'mx-second-void.test');
    assert.deepEqual([mx2.result, mx2.void_lookups, mx2.void_terms], ['permerror', 3, 2]);
    assert.equal(mx2.problems?.length, 1);
    assert.match(
      mx2.problems[0],
      /3 DNS queries found nothing in 2 terms.*pyspf or Mail::SPF.*section 4\.6\.4.*"terms"/,
    );
    // Over the limit by either count: no problem line (the readings agree).
    assert.equal(mx3.problems, undefined);
    // A CNAME to a name without records is an answer with a record in it (answer count 1).
    const alias = await check('192.0.2.200', 'cname-void.test');
    assert.deepEqual([alias.result, alias.void_lookups], ['fail', 2]);
    // One PTR name has no address: the ptr term is void, and the other name validates.
    const ptr = await check('192.0.2.78', 'ptr-one-void.test');
    assert.deepEqual([ptr.result, ptr.void_lookups], ['pass', 1]);
    const ptr3 = await check('192.0.2.78', 'ptr-third-void.test');
    assert.deepEqual([ptr3.result, ptr3.void_lookups], ['permerror', 3]);
    // No PTR record at all: the PTR question itself is a void look-up.
    const nx = await check('192.0.2.77', 'ptr-nx.test');
    assert.deepEqual([nx.result, nx.void_lookups], ['fail', 2]);
    const nx3 = await check('192.0.2.77', 'ptr-nx-third.test');
    assert.deepEqual([nx3.result, nx3.void_lookups], ['permerror', 3]);
    // %{p} asks the PTR question for the term that expands it.
    const macro = await check('192.0.2.79', 'p-macro.test');
    assert.deepEqual([macro.result, macro.void_lookups], ['permerror', 3]);
    const validated = await check('192.0.2.78', 'p-macro.test');
    assert.deepEqual([validated.result, validated.void_lookups], ['permerror', 3]);
  });

  it('rejects a client address that is not an IP, and honours cancellation', async () => {
    await assert.rejects(
      check('not-an-ip', 'corp.test'),
      (e: LookupError) => e.code === 'invalid_argument',
    );
    const ac = new AbortController();
    ac.abort();
    await assert.rejects(
      checkHost(
        { ip: '192.0.2.1', domain: 'corp.test', server: dns.address },
        { ...opts, signal: ac.signal },
      ),
      (e: LookupError) => e.code === 'cancelled',
    );
  });

  it('tells legal wire names from impossible ones', () => {
    assert.ok(isWireName('foo:bar/baz.example.com'));
    assert.ok(isWireName('macro%percent  space.example.com'));
    assert.ok(!isWireName('a..b'));
    assert.ok(!isWireName(`${'a'.repeat(64)}.test`));
    assert.ok(!isWireName('caf\u00e9.test'));
  });
});
