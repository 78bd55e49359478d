// The workspace check over the embedded engine against the loopback test web: every finding
// of the "Must show" list, at its place, with its kind and severity.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EmbeddedServices } from '../../../../src/services/embedded';
import { checkWorkspace, type CheckReport } from '../../../../src/services/check/index';
import { startTestWeb, type TestWeb } from './test-web';

describe('checkWorkspace() on the loopback test web', function () {
  this.timeout(30_000);
  let testWeb: TestWeb;
  let report: CheckReport;
  const saved: Record<string, string | undefined> = {};

  before(async function () {
    testWeb = await startTestWeb();
    for (const [k, v] of Object.entries(testWeb.env)) {
      saved[k] = process.env[k];
      process.env[k] = v;
    }
    report = await checkWorkspace(new EmbeddedServices({}), {
      cwd: testWeb.dir,
      exclude: ['docs/skip.md'],
      server: testWeb.dns.address,
      linkTimeoutMs: 1000,
      cacheFile: join(testWeb.dir, 'build', 'cache.json'),
    });
  });

  after(async function () {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    await testWeb?.close();
  });

  const at = (file: string, line: number) =>
    report.findings.filter((f) => f.file === file && f.line === line);
  const kinds = (file: string, line: number) => at(file, line).map((f) => f.kind);

  it('finds nothing wrong with good links, a temporary redirect, present anchors and a refused HEAD', function () {
    assert.deepEqual(kinds('README.md', 2), []);
    assert.deepEqual(kinds('README.md', 5), []);
    assert.deepEqual(kinds('README.md', 6), []);
    assert.deepEqual(kinds('README.md', 15), []);
    assert.deepEqual(kinds('docs/guide.md', 5), []);
  });

  it('checks a URL written twice once', function () {
    const gets = testWeb.web.requests.filter((r) => r.endsWith(' good.test /ok'));
    // line 2 writes it twice: one request for it, one at the end of each redirect chain
    assert.equal(gets.length, 3, gets.join('\n'));
  });

  it('reports 404 and 410 as broken links, errors', function () {
    const found = at('README.md', 3);
    assert.deepEqual(
      found.map((f) => [f.kind, f.severity, f.column]),
      [
        ['broken_link', 'error', 11],
        ['broken_link', 'error', found[1].column],
      ],
    );
    assert.match(found[0].message, /404/);
    assert.match(found[1].message, /410/);
  });

  it('reports a 301/308 chain with its final URL, a warning', function () {
    const [f] = at('README.md', 4);
    assert.equal(f.kind, 'redirected_link');
    assert.equal(f.severity, 'warning');
    assert.equal(f.final_url, `http://good.test:${testWeb.web.port}/ok`);
    assert.equal(f.column, 8);
  });

  it('reports a missing fragment', function () {
    const found = at('README.md', 7);
    assert.deepEqual(
      found.map((f) => f.kind),
      ['missing_fragment'],
    );
    assert.match(found[0].message, /#absent/);
  });

  it('waits out a 429 with Retry-After and then finds the page good', function () {
    assert.deepEqual(kinds('README.md', 8), []);
    const busy = testWeb.web.requests.filter((r) => r.includes(' busy.test '));
    assert.ok(busy.length >= 2, busy.join('\n'));
  });

  it('reports a slow host as a timeout', function () {
    assert.deepEqual(kinds('README.md', 9), ['timeout']);
  });

  it('reports an NXDOMAIN host as unresolvable', function () {
    assert.deepEqual(kinds('README.md', 10), ['unresolvable_host']);
  });

  it('never calls a domain under a suffix no registry sells registrable', function () {
    const text = (file: string, line: number) => at(file, line).map((f) => [f.kind, f.message]);
    assert.deepEqual(text('README.md', 20), [
      ['unresolvable_host', 'intranet.corp does not resolve (NXDOMAIN)'],
    ]);
    assert.deepEqual(text('zones/corp.test.zone', 9), [
      ['dangling_record', 'gone.lan does not exist (NXDOMAIN)'],
    ]);
  });

  it('reports a host whose domain is not registered as registrable, an error', function () {
    const [f] = at('README.md', 11);
    assert.equal(f.kind, 'registrable_domain');
    assert.equal(f.severity, 'error');
    assert.match(f.message, /lapsed-hostlens-fixture\.com is not registered/);
  });

  it('warns of a domain that expires within 30 days', function () {
    const [f] = at('README.md', 12);
    assert.equal(f.kind, 'expiring_domain');
    assert.match(f.message, /soon-hostlens-fixture\.com expires on .* \(in 10 days\)/);
  });

  it('reports a mailto: domain with a null MX as broken, and passes one with an address', function () {
    const found = at('README.md', 13);
    assert.deepEqual(
      found.map((f) => f.kind),
      ['broken_link'],
    );
    assert.match(found[0].message, /null MX/);
    assert.equal(found[0].target, 'mailto:nobody@nomail.test');
  });

  it('checks relative links and their heading anchors', function () {
    const found = at('README.md', 14);
    assert.deepEqual(
      found.map((f) => [f.kind, f.target]),
      [
        ['missing_fragment', 'docs/guide.md#nowhere'],
        ['broken_link', 'docs/lost.md'],
      ],
    );
  });

  it('skips fenced code, reserved example names, .gitignored and excluded files', function () {
    assert.deepEqual(kinds('README.md', 17), []);
    assert.deepEqual(kinds('README.md', 19), []);
    assert.ok(!report.findings.some((f) => f.file.startsWith('build/')));
    assert.ok(!report.findings.some((f) => f.file === 'docs/skip.md'));
  });

  it('reports zone records pointing at missing or registrable names as dangling', function () {
    const zone = 'zones/corp.test.zone';
    assert.deepEqual(kinds(zone, 5), ['dangling_record']);
    assert.match(at(zone, 5)[0].message, /lapsed-hostlens-fixture\.com is not registered/);
    assert.deepEqual(kinds(zone, 6), ['dangling_record']);
    assert.match(at(zone, 6)[0].message, /NXDOMAIN/);
    assert.deepEqual(kinds(zone, 4), []);
    assert.deepEqual(kinds(zone, 7), []);
    assert.deepEqual(kinds(zone, 8), []);
    assert.deepEqual(kinds(zone, 9), ['dangling_record']);
  });

  it('counts distinct URLs and hosts', function () {
    assert.ok(report.checked.urls >= 12, JSON.stringify(report.checked));
    assert.ok(report.checked.hosts >= 6, JSON.stringify(report.checked));
  });

  it('keeps good results in the cache file and never a failure', function () {
    const file = join(testWeb.dir, 'build', 'cache.json');
    assert.ok(existsSync(file));
    const keys = Object.keys(
      (JSON.parse(readFileSync(file, 'utf8')) as { entries: object }).entries,
    );
    assert.ok(keys.some((k) => k.includes('/ok#')));
    assert.ok(!keys.some((k) => k.includes('/missing')));
  });
});
