// The "Must show" test web of issue 21, shared by the check's tests (services and CLI): a
// loopback DNS server, HTTP server, RDAP bootstrap and service, and a workspace of files whose
// every finding is known.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseZone, startDnsServer, type DnsFixture } from '../../../support/dns-server';
import { startLinkWeb, type LinkWeb } from '../../../support/link-web';
import { startRdapServer } from '../../../support/rdap-server';

export interface TestWeb {
  dir: string;
  dns: DnsFixture;
  web: LinkWeb;
  /** HOSTLENS_RDAP_BOOTSTRAP and HOSTLENS_WHOIS_SERVER for the whois look-ups */
  env: Record<string, string>;
  close(): Promise<void>;
}

const DAY = 86_400_000;

function registered(name: string, expires: Date) {
  return {
    body: {
      objectClassName: 'domain',
      ldhName: name,
      events: [{ eventAction: 'expiration', eventDate: expires.toISOString() }],
    },
  };
}

export async function startTestWeb(now = Date.now()): Promise<TestWeb> {
  const dns = await startDnsServer({
    records: parseZone(
      [
        '$ORIGIN test.',
        'good 300 IN A 127.0.0.1',
        'busy 300 IN A 127.0.0.1',
        'slow 300 IN A 127.0.0.1',
        'soon 300 IN A 127.0.0.1',
        'nomail 300 IN MX 0 .',
        'nomail 300 IN A 127.0.0.1',
        'private 300 IN A 10.0.0.1',
        // The domains WHOIS speaks for sit under an ICANN suffix: .test is sold by no registry.
        'soon-hostlens-fixture.com. 300 IN A 127.0.0.1',
      ].join('\n'),
      'test.',
    ),
  });
  const web = await startLinkWeb({ slowMs: 3000 });
  // Only names under an ICANN suffix are looked up in WHOIS; the bootstrap sends .com (and
  // nothing else) to this loopback RDAP server.
  const rdap = await startRdapServer({
    '/domain/soon-hostlens-fixture.com': registered(
      'soon-hostlens-fixture.com',
      new Date(now + 10 * DAY),
    ),
    // lapsed-hostlens-fixture.com: no route, so RDAP answers 404: not registered
  });
  const boot = await startRdapServer({
    '/dns.json': { body: { version: '1.0', services: [[['com'], [rdap.base]]] } },
  });
  const dir = mkdtempSync(join(tmpdir(), 'hostlens-check-'));
  writeWorkspace(dir, web.port);
  return {
    dir,
    dns,
    web,
    // Port 1: nothing listens, so no look-up ever falls through to a real WHOIS server.
    env: { HOSTLENS_RDAP_BOOTSTRAP: `${boot.base}dns.json`, HOSTLENS_WHOIS_SERVER: '127.0.0.1:1' },
    async close() {
      rmSync(dir, { recursive: true, force: true });
      await Promise.all([dns.close(), web.close(), rdap.close(), boot.close()]);
    },
  };
}

function writeWorkspace(dir: string, port: number): void {
  const at = (host: string, path: string) => `http://${host}:${port}${path}`;
  mkdirSync(join(dir, 'docs'));
  mkdirSync(join(dir, 'build'));
  mkdirSync(join(dir, 'zones'));
  writeFileSync(join(dir, '.gitignore'), 'build/\n');
  writeFileSync(
    join(dir, 'README.md'),
    [
      '# Project', // line 1
      `A [good page](${at('good.test', '/ok')}) and the same again: ${at('good.test', '/ok')}`,
      `[missing](${at('good.test', '/missing')}) and [gone](${at('good.test', '/gone')})`,
      `Moved: ${at('good.test', '/moved')}`,
      `For now: ${at('good.test', '/for-now')}`, // line 5
      `[anchor](${at('good.test', '/page#present')}) [named](${at('good.test', '/page#named')}) [github](${at('good.test', '/page#install')})`,
      `[no anchor](${at('good.test', '/page#absent')})`,
      `Busy: ${at('busy.test', '/')}`,
      `Slow: ${at('slow.test', '/')}`,
      `Nowhere: ${at('nx.good.test', '/')}`, // line 10
      `Lapsed: ${at('lapsed-hostlens-fixture.com', '/')}`,
      `Soon: ${at('soon-hostlens-fixture.com', '/')}`,
      'Write to <mailto:team@good.test> or [nobody](mailto:nobody@nomail.test).',
      '[Guide](docs/guide.md#setting-up) [wrong](docs/guide.md#nowhere) [lost](docs/lost.md)',
      `HEAD refused: ${at('good.test', '/no-head')}`, // line 15
      '```',
      `${at('good.test', '/missing')} in a code block is an example`,
      '```',
      'An example: https://www.example.com/nothing',
      'Intranet: http://intranet.corp/', // line 20: no registry sells .corp
    ].join('\n'),
  );
  writeFileSync(
    join(dir, 'docs', 'guide.md'),
    ['# Guide', '', '## Setting up', '', 'See [the top](../README.md#project).'].join('\n'),
  );
  writeFileSync(join(dir, 'build', 'out.md'), `${at('good.test', '/missing')}\n`);
  writeFileSync(join(dir, 'docs', 'skip.md'), `${at('good.test', '/gone')}\n`);
  writeFileSync(
    join(dir, 'zones', 'corp.test.zone'),
    [
      '$ORIGIN corp.test.',
      '$TTL 300',
      '@ IN SOA ns1.good.test. admin.corp.test. 1 3600 600 86400 300',
      '@ IN NS good.test.',
      'www IN CNAME lapsed-hostlens-fixture.com.', // line 5
      '@ IN MX 10 nx.good.test.',
      'api IN CNAME good.test.',
      'int IN CNAME www.corp.test.',
      'db IN CNAME gone.lan.', // line 9: no registry sells .lan
    ].join('\n'),
  );
}
