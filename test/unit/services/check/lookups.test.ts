// The workspace check's host names and failed look-ups, over services scripted per name: bare
// host names in prose are checked like a URL's host (only under ICANN suffixes), a DNS, WHOIS
// or mail look-up that fails is one lookup_failed finding, and a refused token ends the run.
import assert from 'node:assert/strict';
import { LookupError } from '../../../../src/contract/errors';
import type { Services } from '../../../../src/contract/services';
import type { QueryResult, WhoisResult } from '../../../../src/contract/shapes';
import { checkTexts, type CheckReport } from '../../../../src/services/check/index';

const NOW = Date.parse('2026-01-01T00:00:00Z');
const DAY = 86_400_000;

/** DNS answers by name: an address, NXDOMAIN, or a thrown error. */
type Dns = Record<string, 'address' | 'nxdomain' | 'null-mx' | LookupError | QueryResult>;
/** WHOIS by registrable domain: an expiry date, not registered, or a thrown error. */
type Whois = Record<string, number | 'unregistered' | LookupError>;

/** A service method answering on a later tick; what `answer` throws becomes a rejection. */
function answerLater<P, T>(answer: (params: P) => T): (params: P) => Promise<T> {
  return (params) => new Promise<T>((resolve) => resolve(answer(params)));
}

function scripted(dns: Dns, whois: Whois, asked: string[] = []): Services {
  const domain = {
    query: answerLater(({ host, types }: { host: string; types?: string[] }): QueryResult => {
      asked.push(`dns ${host}`);
      const answer = dns[host];
      if (answer instanceof LookupError) throw answer;
      if (answer === undefined || answer === 'nxdomain') return { records: [], status: 'NXDOMAIN' };
      if (typeof answer === 'object') return answer;
      if (answer === 'null-mx') return { records: [{ type: 'MX', value: '.', priority: 0 }] };
      return {
        records: types?.includes('A') ? [{ type: 'A', value: '192.0.2.1' }] : [],
        status: 'NOERROR',
      };
    }),
    whois: answerLater(({ host }: { host: string }): WhoisResult => {
      asked.push(`whois ${host}`);
      const answer = whois[host];
      if (answer instanceof LookupError) throw answer;
      if (answer === undefined || answer === 'unregistered') {
        throw new LookupError('not_found', 'The domain is not registered');
      }
      return {
        domain: { domain: host, expiration_date_in_time: new Date(answer).toISOString() },
        registrar: {},
      };
    }),
  };
  const meta = {
    link: answerLater(({ url }: { url: string }) => {
      asked.push(`link ${url}`);
      return { status: 200, method: 'HEAD' as const, locations: [], final_url: url };
    }),
  };
  return { domain, meta } as unknown as Services;
}

const check = (services: Services, file: string, text: string): Promise<CheckReport> =>
  checkTexts(services, [{ file: `/w/${file}`, text }], { cwd: '/w', now: () => NOW });

const summary = (report: CheckReport) =>
  report.findings.map((f) => `${f.line}:${f.column} ${f.kind} ${f.severity} ${f.target}`);

describe('link check: host names and failed look-ups', function () {
  it('checks host names written in prose: NXDOMAIN, registrable, expiring; private suffixes and file names left alone', async function () {
    const asked: string[] = [];
    const services = scripted(
      {
        'mirror.hostlens-fixture.com': 'address',
        'soon-fixture.net': 'address',
        'docs.hostlens-fixture.com': 'address',
      },
      {
        'hostlens-fixture.com': NOW + 365 * DAY,
        'soon-fixture.net': NOW + 10 * DAY,
      },
      asked,
    );
    const report = await check(
      services,
      'notes.md',
      [
        'Downloads: mirror.hostlens-fixture.com, the old gone.hostlens-fixture.com is retired.',
        'Formerly lapsed-fixture.org; billing at soon-fixture.net.',
        'Internal: db.corp.internal and build.lan; see README.md and setup.py; onion: abc.onion',
        '[docs.hostlens-fixture.com](https://docs.hostlens-fixture.com/) and www.example.com',
      ].join('\n'),
    );
    assert.deepEqual(summary(report), [
      '1:49 unresolvable_host error gone.hostlens-fixture.com',
      '2:10 registrable_domain error lapsed-fixture.org',
      '2:41 expiring_domain warning soon-fixture.net',
    ]);
    const looked = asked.filter((a) => a.startsWith('dns ')).sort();
    assert.deepEqual(looked, [
      'dns docs.hostlens-fixture.com',
      'dns gone.hostlens-fixture.com',
      'dns lapsed-fixture.org',
      'dns mirror.hostlens-fixture.com',
      'dns soon-fixture.net',
    ]);
    assert.equal(report.checked.hosts, 5);
  });

  it('under a suffix no registry sells: a missing name is only NXDOMAIN, nothing expires, no WHOIS is asked', async function () {
    const asked: string[] = [];
    // Every other name is NXDOMAIN and every other WHOIS says "not registered": only the ICANN
    // suffix (com) makes the free domain one anyone can register, or one that expires.
    const services = scripted({ 'wiki.corp': 'address' }, { 'wiki.corp': NOW + 10 * DAY }, asked);
    const report = await checkTexts(
      services,
      [
        {
          file: '/w/README.md',
          text: [
            'The wiki: http://intranet.corp/ and the old site: https://www.lapsed-fixture.com/',
            'The new wiki: http://wiki.corp/',
          ].join('\n'),
        },
        {
          file: '/w/zones/hostlens-fixture.com.zone',
          text: [
            '$ORIGIN hostlens-fixture.com.',
            '$TTL 300',
            'db IN CNAME gone.lan.',
            'old IN CNAME gone.lapsed-fixture.com.',
          ].join('\n'),
        },
      ],
      { cwd: '/w', now: () => NOW },
    );
    assert.deepEqual(
      report.findings.map((f) => `${f.file}:${f.line} ${f.kind} ${f.target} ${f.message}`),
      [
        'README.md:1 unresolvable_host http://intranet.corp/ intranet.corp does not resolve (NXDOMAIN)',
        'README.md:1 registrable_domain https://www.lapsed-fixture.com/ lapsed-fixture.com is not registered: anyone can register it and answer for www.lapsed-fixture.com',
        'zones/hostlens-fixture.com.zone:3 dangling_record gone.lan. gone.lan does not exist (NXDOMAIN)',
        'zones/hostlens-fixture.com.zone:4 dangling_record gone.lapsed-fixture.com. lapsed-fixture.com is not registered: anyone can register it and answer for gone.lapsed-fixture.com',
      ],
    );
    assert.deepEqual(asked.filter((a) => a.startsWith('whois ')).sort(), [
      'whois lapsed-fixture.com',
    ]);
  });

  it('says once, at the first place, that a WHOIS look-up failed, and still reports NXDOMAIN', async function () {
    const services = scripted(
      { 'www.flaky-fixture.com': 'address', 'api.flaky-fixture.com': 'address' },
      {
        'flaky-fixture.com': new LookupError(
          'upstream_timeout',
          'The WHOIS look-up did not finish in time',
        ),
      },
    );
    const report = await check(
      services,
      'hosts.txt',
      [
        'www.flaky-fixture.com',
        'api.flaky-fixture.com and https://www.flaky-fixture.com/page',
        'gone.flaky-fixture.com',
      ].join('\n'),
    );
    assert.deepEqual(summary(report), [
      '1:1 lookup_failed info www.flaky-fixture.com',
      '3:1 unresolvable_host error gone.flaky-fixture.com',
    ]);
    assert.match(
      report.findings[0].message,
      /registration of flaky-fixture\.com could not be checked \(upstream_timeout: .*\): its expiry is unknown \(and 3 more places\)/,
    );
    assert.equal(report.findings[1].message, 'gone.flaky-fixture.com does not resolve (NXDOMAIN)');
  });

  it('says when a name could not be resolved, or a mail domain not checked, instead of passing it', async function () {
    const servfail = new LookupError('upstream_error', 'every nameserver failed (SERVFAIL)');
    const services = scripted(
      {
        'down.hostlens-fixture.com': servfail,
        'mail-fixture.com': servfail,
        'half.hostlens-fixture.com': {
          records: [],
          status: 'NOERROR',
          errors: [{ type: 'A', code: 'upstream_timeout' }],
        },
      },
      { 'hostlens-fixture.com': NOW + 365 * DAY, 'mail-fixture.com': NOW + 365 * DAY },
    );
    const report = await check(
      services,
      'README.md',
      [
        'Status page: down.hostlens-fixture.com',
        'Write to [us](mailto:team@mail-fixture.com). Or half.hostlens-fixture.com',
      ].join('\n'),
    );
    assert.deepEqual(summary(report), [
      '1:14 lookup_failed info down.hostlens-fixture.com',
      '2:15 lookup_failed info mailto:team@mail-fixture.com',
      '2:49 lookup_failed info half.hostlens-fixture.com',
    ]);
    assert.match(report.findings[0].message, /could not be resolved: upstream_error/);
    assert.match(
      report.findings[1].message,
      /whether mail-fixture\.com takes mail could not be checked/,
    );
    assert.match(report.findings[2].message, /A upstream_timeout/);
  });

  it('fails the run when the service refuses the token, rather than call every link broken', async function () {
    const services = scripted({ 'www.hostlens-fixture.com': 'address' }, {});
    services.meta.link = () =>
      Promise.reject(new LookupError('unauthorized', 'Missing or invalid API token'));
    services.domain.whois = () =>
      Promise.reject(new LookupError('unauthorized', 'Missing or invalid API token'));
    await assert.rejects(
      check(services, 'a.md', 'https://www.hostlens-fixture.com/'),
      (err: unknown) => err instanceof LookupError && err.code === 'unauthorized',
    );
  });
});
