// hostlens check against the loopback test web: the same findings as JSON (the exact
// shape), as text lines, and as SARIF 2.1.0 that validates against the OASIS schema; exit 1 with
// an error finding, 2 when the run itself fails.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv-draft-04';
import { startTestWeb, type TestWeb } from '../services/check/test-web';
import { runCli, type Run } from './run';

const SCHEMA = join(__dirname, '..', '..', 'fixtures', 'sarif', 'sarif-2.1.0-rtm.5.json');

describe('hostlens check', function () {
  this.timeout(60_000);
  let testWeb: TestWeb;
  let cwd: string;
  const saved: Record<string, string | undefined> = {};

  before(async function () {
    testWeb = await startTestWeb();
    for (const [k, v] of Object.entries(testWeb.env)) {
      saved[k] = process.env[k];
      process.env[k] = v;
    }
    cwd = process.cwd();
    process.chdir(testWeb.dir);
  });

  after(async function () {
    process.chdir(cwd);
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    await testWeb?.close();
  });

  const check = (...args: string[]): Promise<Run> =>
    runCli(['check', '--server', testWeb.dns.address, '--exclude', 'docs/skip.md', ...args]);

  it('prints the findings as JSON in the issue shape and exits 1', async function () {
    const run = await check('--format', 'json', 'README.md', 'zones');
    assert.equal(run.code, 1, run.stderr);
    const report = JSON.parse(run.stdout) as {
      findings: Array<Record<string, unknown>>;
      checked: { urls: number; hosts: number };
    };
    assert.deepEqual(Object.keys(report), ['findings', 'checked']);
    for (const f of report.findings) {
      const keys = Object.keys(f).filter((k) => k !== 'final_url');
      assert.deepEqual(keys, ['file', 'line', 'column', 'target', 'kind', 'severity', 'message']);
    }
    const summary = report.findings.map((f) => [f.file, f.line, f.kind, f.severity].join(' '));
    assert.deepEqual(summary, [
      'README.md 3 broken_link error',
      'README.md 3 broken_link error',
      'README.md 4 redirected_link warning',
      'README.md 7 missing_fragment warning',
      'README.md 10 unresolvable_host error',
      'README.md 11 registrable_domain error',
      'README.md 12 expiring_domain warning',
      'README.md 13 broken_link error',
      'README.md 14 missing_fragment warning',
      'README.md 14 broken_link error',
      'README.md 20 unresolvable_host error',
      'zones/corp.test.zone 5 dangling_record error',
      'zones/corp.test.zone 6 dangling_record error',
      'zones/corp.test.zone 9 dangling_record error',
    ]);
    const moved = report.findings.find((f) => f.kind === 'redirected_link')!;
    assert.equal(moved.final_url, `http://good.test:${testWeb.web.port}/ok`);
  });

  it('prints file:line:column lines as text', async function () {
    const run = await check('--format', 'text', 'README.md');
    assert.equal(run.code, 1);
    assert.match(
      run.stdout,
      /^README\.md:4:8 \S+ warning redirected_link .* moved permanently to/m,
    );
    assert.match(
      run.stdout,
      /^README\.md:11:\d+ .* error registrable_domain lapsed-hostlens-fixture\.com is not registered/m,
    );
    assert.match(run.stdout, /URLs and \d+ hosts checked: 7 errors, 4 warnings\n$/);
  });

  it('writes SARIF 2.1.0 that validates against the schema, a result a finding', async function () {
    const run = await check('--format', 'sarif', 'README.md', 'zones');
    assert.equal(run.code, 1);
    const sarif = JSON.parse(run.stdout) as {
      runs: Array<{ results: Array<{ ruleId: string; level: string; locations: unknown[] }> }>;
    };
    // The schema's language pattern is not valid with the u flag (an unmatched "]").
    const ajv = new Ajv({
      unicodeRegExp: false,
      formats: {
        uri: (s: string) => URL.canParse(s),
        'uri-reference': (s: string) => URL.canParse(s, 'file:///'),
        'date-time': (s: string) => !Number.isNaN(Date.parse(s)),
      },
    });
    const validate = ajv.compile(JSON.parse(readFileSync(SCHEMA, 'utf8')) as object);
    assert.ok(validate(sarif), JSON.stringify(validate.errors, null, 2));
    const results = sarif.runs[0].results;
    assert.equal(results.length, 14);
    assert.deepEqual(results[0], {
      ...results[0],
      ruleId: 'broken_link',
      level: 'error',
    });
    assert.deepEqual((results[0].locations[0] as { physicalLocation: unknown }).physicalLocation, {
      artifactLocation: { uri: 'README.md', uriBaseId: 'SRCROOT' },
      region: {
        startLine: 3,
        startColumn: 11,
        endColumn: 11 + `http://good.test:${testWeb.web.port}/missing`.length,
      },
    });
  });

  it('exits 0 when no finding is an error', async function () {
    const run = await check('--format', 'json', 'docs/guide.md');
    assert.equal(run.code, 0, run.stdout);
  });

  it('exits 2 when the run fails: a path that does not exist, a bad limit', async function () {
    const missing = await check('--format', 'json', 'no/such/dir');
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /no such file or directory/);
    const bad = await check('--max-per-host', '0');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--max-per-host takes a whole number/);
  });

  it('refuses a format it does not know', async function () {
    const run = await runCli(['check', '--format', 'xml']);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /text.{1,4} or .{1,4}json.{1,4} or .{1,4}sarif/);
  });
});
