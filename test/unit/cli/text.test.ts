// Golden files for every text rendering, from the loopback fixtures: the DNS zones of
// test/fixtures/zones, the web site of test/support/web-server.ts and an RDAP server. DNS and
// WHOIS go through the whole command line; the web answers are rendered after the fixture's
// random origin is replaced, so the files do not depend on a port number.
// UPDATE_GOLDEN=1 rewrites the files; review the diff before committing it.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderText } from '../../../src/cli/text/index';
import { makeGlyphs, makeStyle } from '../../../src/cli/text/style';
import { EmbeddedServices } from '../../../src/services/embedded';
import {
  loadFixtureZones,
  parseZone,
  startDnsServer,
  type DnsFixture,
} from '../../support/dns-server';
import { startRdapServer, type RdapFixture } from '../../support/rdap-server';
import { startWebServer, type WebFixture } from '../../support/web-server';
import { PIPE, runCli } from './run';

const GOLDEN = join(__dirname, '..', '..', 'fixtures', 'cli');
const SITE = 'http://site.test';

function golden(name: string, actual: string): void {
  const file = join(GOLDEN, `${name}.txt`);
  if (process.env.UPDATE_GOLDEN === '1') {
    mkdirSync(GOLDEN, { recursive: true });
    writeFileSync(file, actual);
    return;
  }
  assert.ok(existsSync(file), `${file} is missing: run with UPDATE_GOLDEN=1 and review it`);
  assert.equal(actual, readFileSync(file, 'utf8'), `${name} differs from ${file}`);
}

// Names that exercise quoting and per-type failures, beside the shared fixture zones.
const EXTRA_ZONE = `$ORIGIN quirks.test.
$TTL 300
@        IN SOA ns.quirks.test. hostmaster.quirks.test. 1 7200 900 1209600 300
@        IN NS  ns.quirks.test.
@        IN TXT "say \\"hi\\"" "back\\\\slash" "tab\\009end"
@        IN A   192.0.2.99
@        IN MX  10 mx.quirks.test.
_sip._udp IN SRV 5 10 5060 sip.quirks.test.
`;

const RDAP_CZ = {
  objectClassName: 'domain',
  ldhName: 'example.cz',
  handle: 'D0001-CZ',
  status: ['active', 'client transfer prohibited', 'server hold', 'registryFancyState'],
  nameservers: [{ ldhName: 'NS1.EXAMPLE.CZ' }, { ldhName: 'ns2.example.cz.' }],
  secureDNS: { delegationSigned: true },
  events: [
    { eventAction: 'registration', eventDate: '2001-02-03T04:05:06Z' },
    { eventAction: 'last changed', eventDate: '2026-10-02T08:00:00Z' },
    { eventAction: 'expiration', eventDate: '2026-11-20T12:00:00Z' },
  ],
  entities: [
    {
      roles: ['registrar'],
      publicIds: [{ type: 'IANA Registrar ID', identifier: '9999' }],
      vcardArray: ['vcard', [['fn', {}, 'text', 'Loopback Registrar s.r.o.']]],
    },
  ],
};

describe('hostlens text output (golden files)', () => {
  let dns: DnsFixture;
  let failing: DnsFixture;
  let web: WebFixture;
  let rdap: RdapFixture;
  let tmp: string;
  const savedEnv: Record<string, string | undefined> = {};

  before(async () => {
    const records = [...loadFixtureZones(), ...parseZone(EXTRA_ZONE)];
    [dns, failing, web, rdap] = await Promise.all([
      startDnsServer({ records }),
      startDnsServer({
        records,
        behaviour: (q) => (q.type === 'MX' ? 'servfail' : q.type === 'CAA' ? 'refused' : undefined),
      }),
      startWebServer(),
      startRdapServer({ '/domain/example.cz': { body: RDAP_CZ } }),
    ]);
    tmp = mkdtempSync(join(tmpdir(), 'hostlens-cli-text-'));
    const bootstrap = join(tmp, 'dns.json');
    writeFileSync(bootstrap, JSON.stringify({ version: '1.0', services: [[['cz'], [rdap.base]]] }));
    for (const [k, v] of Object.entries({ HOSTLENS_RDAP_BOOTSTRAP: bootstrap })) {
      savedEnv[k] = process.env[k];
      process.env[k] = v;
    }
  });

  after(async () => {
    for (const [k, v] of Object.entries(savedEnv)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    await Promise.all([dns.close(), failing.close(), web.close(), rdap.close()]);
    rmSync(tmp, { recursive: true, force: true });
  });

  async function text(args: string[], server = dns): Promise<string> {
    const r = await runCli([...args, '--server', server.address, '--format', 'text']);
    assert.equal(r.stderr, '', args.join(' '));
    assert.equal(r.code, 0, args.join(' '));
    return r.stdout;
  }

  it('query: every type of a name as aligned zone-file lines with the status', async () => {
    golden('query-all', await text(['query', 'example.test']));
  });

  it('query: a CNAME first, with a note that the rest belongs to its target', async () => {
    golden('query-cname', await text(['query', 'www.example.test']));
  });

  it('query: NXDOMAIN and an empty answer', async () => {
    golden('query-nxdomain', await text(['query', 'nx.example.test']));
    golden('query-nodata', await text(['query', 'wild.example.test', 'MX']));
  });

  it('query: TXT quoted with escapes, SRV, IDN names in ASCII, an address by its reverse name', async () => {
    golden('query-quoting', await text(['query', 'quirks.test', 'TXT', 'A']));
    golden('query-srv', await text(['query', '_sip._tcp.example.test', 'SRV']));
    golden('query-idn', await text(['query', 'bücher.example.test']));
    golden('query-ptr', await text(['query', '192.0.2.10']));
  });

  it('query: the types that failed under the status', async () => {
    golden('query-failures', await text(['query', 'quirks.test', 'A', 'MX', 'CAA'], failing));
  });

  it('sender_policy_ranges: the include tree, box-drawing and ASCII', async () => {
    golden('spf-tree', await text(['sender_policy_ranges', 'mail.test']));
    golden('spf-tree-ascii', await text(['sender_policy_ranges', 'mail.test', '--ascii']));
  });

  it('domain_keys and mail: keys with type, bits and verdict; DMARC and friends', async () => {
    const selectors = ['google', 's1', 'k1', 'fm1', 'nothere'].flatMap((s) => ['--selectors', s]);
    golden('domain-keys', await text(['domain_keys', 'mail.test', ...selectors]));
    golden('mail', await text(['mail', 'mail.test', '--skip-transport']));
    golden('mail-example', await text(['mail', 'example.test', '--ascii', '--skip-transport']));
  });

  it('spf-check: the result and what decided it', async () => {
    golden('spf-check-pass', await text(['spf-check', 'mail.test', '198.51.100.9']));
    golden('spf-check-permerror', await text(['spf-check', 'mail.test', '10.9.9.9']));
  });

  it("spf-check: a note where RFC 7208's wording would give another verdict", () => {
    const problem = '3 DNS queries found nothing in 2 terms: receivers give permerror';
    const out = renderText(
      'spf-check',
      { result: 'permerror', lookups: 2, void_lookups: 3, void_terms: 2, problems: [problem] },
      {
        style: makeStyle(false),
        glyphs: makeGlyphs(false),
        now: PIPE.now(),
        width: Infinity,
        params: { ip: '192.0.2.1', host: 'mail.test' },
      },
    );
    assert.match(out, new RegExp(`^note +${problem}$`, 'm'));
  });

  it('whois: registrar, dates with "in N days", statuses with meanings, name servers', async () => {
    const r = await runCli(['whois', 'example.cz', '--format', 'text']);
    assert.equal(r.code, 0, r.stderr);
    golden('whois', r.stdout);
  });

  describe('web operations', () => {
    const services = new EmbeddedServices({});
    const render = (command: string, result: unknown, url: string) =>
      `${renderText(command, JSON.parse(JSON.stringify(result).replaceAll(web.origin, SITE)), {
        style: makeStyle(false),
        glyphs: makeGlyphs(false),
        now: PIPE.now(),
        width: Infinity,
        params: { url: url.replace(web.origin, SITE) },
      })}\n`;

    it('redirects: the hops numbered with their codes, loops and meta refresh', async () => {
      for (const [name, path] of [
        ['redirects-chain', '/redirect/308'],
        ['redirects-loop', '/loop/a'],
        ['redirects-refresh', '/refresh'],
      ] as const) {
        const url = web.url(path);
        golden(name, render('redirects', await services.redirects({ url }), url));
      }
    });

    it('icons and unfurl: tables', async () => {
      const icons = web.url('/icons/all');
      golden('icons', render('icons', await services.icons({ url: icons }), icons));
      const none = web.url('/icons/none');
      golden('icons-none', render('icons', await services.icons({ url: none }), none));
      const og = web.url('/og');
      golden('unfurl', render('unfurl', await services.unfurl({ url: og }), og));
      const image = web.url('/img/icon-32.png');
      golden('image', render('image', await services.image({ url: image }), image));
    });
  });

  it('errors: one line on stderr in text, the problem JSON with --format json', async () => {
    const args = ['sender_policy_ranges', 'nx.mail.test', '--server', dns.address];
    const textual = await runCli([...args, '--format', 'text']);
    assert.equal(textual.code, 1);
    assert.equal(textual.stdout, '');
    assert.equal(textual.stderr, 'hostlens: not_found: nx.mail.test has no SPF record\n');
    const json = await runCli([...args, '--format', 'json']);
    assert.equal(json.code, 1);
    assert.deepEqual(JSON.parse(json.stderr), {
      type: 'https://hostlens.dev/problems/not_found',
      title: 'Not found',
      status: 404,
      detail: 'nx.mail.test has no SPF record',
      code: 'not_found',
    });
    const usage = await runCli(['query', '--nope', '--format', 'text']);
    assert.equal(usage.code, 2);
    assert.match(
      usage.stderr,
      /^hostlens: invalid_argument: Unknown option --nope\nusage: hostlens query /,
    );
    const format = await runCli(['query', 'example.test', '--format', 'yaml']);
    assert.equal(format.code, 2);
    assert.equal((JSON.parse(format.stderr) as { code: string }).code, 'invalid_argument');
  });
});
