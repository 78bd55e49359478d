// The shipped command line loads only what a command needs (issue 24): the launcher and main
// import only the command table, the output choice and the usage text; each command's module
// and its engine parts are chunks imported when that command runs. Read from the minified
// bundle as `npm pack` ships it, by following the requires at the top of its chunks.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCli } from '../../support/cli-build';

/**
 * Every file a chunk loads before it runs: itself and the chunks it requires at its top,
 * transitively (a chunk imported lazily is required inside a promise's callback: not counted).
 */
function staticClosure(dir: string, file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = readFileSync(join(dir, file), 'utf8');
  const lazy = new Set(
    [...text.matchAll(/then\(\(\) ?=> ?(?:[\w$]+\()?require\("\.\/([^"]+)"\)/g)].map((m) => m[1]),
  );
  for (const m of text.matchAll(/require\("\.\/([^"]+)"\)/g))
    if (!lazy.has(m[1])) staticClosure(dir, m[1], seen);
  return seen;
}

const bytes = (dir: string, files: Set<string>) =>
  [...files].reduce((sum, f) => sum + statSync(join(dir, f)).size, 0);

describe('the command line bundle', function () {
  this.timeout(60_000);
  let tmp: string;
  let chunks: string;
  let files: string[];

  before(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'hostlens-cli-bundle-'));
    const cli = await buildCli(tmp, { production: true });
    assert.ok(statSync(cli).size < 4096, 'the launcher is a few lines');
    chunks = join(tmp, 'cli');
    files = readdirSync(chunks);
  });

  after(() => rmSync(tmp, { recursive: true, force: true }));

  const moduleOf = (name: string) => {
    const file = files.find((f) => f.startsWith(`${name}-`) && f.endsWith('.cjs'));
    assert.ok(file, `a chunk for ${name}`);
    return file;
  };

  it('starts (--version, help, completion, --help) on a small part of the bundle', () => {
    const all = files.reduce((sum, f) => sum + statSync(join(chunks, f)).size, 0);
    const start = bytes(chunks, staticClosure(chunks, 'main.cjs'));
    // each CommonJS chunk carries esbuild's interop helpers (some 700 bytes)
    assert.ok(start < 24_000, `main and its static imports: ${start} bytes of ${all}`);
    const completion = bytes(chunks, staticClosure(chunks, moduleOf('completion')));
    assert.ok(completion < 24_000, `completion: ${completion} bytes`);
  });

  it('loads for zone-check neither the server nor the web and WHOIS engines', () => {
    const zone = staticClosure(chunks, moduleOf('zone-check'));
    const serve = staticClosure(chunks, moduleOf('serve'));
    const zoneBytes = bytes(chunks, zone);
    const serveBytes = bytes(chunks, serve);
    assert.ok(zoneBytes * 3 < serveBytes, `zone-check ${zoneBytes} bytes, serve ${serveBytes}`);
    for (const f of zone) {
      const text = readFileSync(join(chunks, f), 'utf8');
      assert.ok(!text.includes('undici'), `${f}: no HTTP client`);
    }
  });

  it('checks a zone into a pipe without loading node:net or node:crypto', () => {
    // what Node loaded, written by a preload at exit; stdout is a pipe, as in a script
    const preload = join(tmp, 'modules-at-exit.js');
    writeFileSync(
      preload,
      "process.on('exit', () => require('fs').writeSync(2, process.moduleLoadList.join('\\n')));",
    );
    const zone = join(__dirname, '..', '..', 'fixtures', 'zones', 'example.test.zone');
    const run = spawnSync(
      process.execPath,
      ['-r', preload, join(tmp, 'cli.js'), 'zone-check', zone, '--origin', 'example.test.'],
      { encoding: 'utf8' },
    );
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /^\{"problems":\[/);
    const loaded = run.stderr.split('\n');
    for (const name of ['net', 'crypto'])
      assert.ok(!loaded.includes(`NativeModule ${name}`), `${name} loaded`);
  });

  it('ends a zone-check once its answer is written, every byte of it', () => {
    // Node's orderly exit emits beforeExit; a process ended at its answer (short-run.ts) does not
    const preload = join(tmp, 'before-exit.js');
    writeFileSync(
      preload,
      "process.on('beforeExit', () => require('fs').writeSync(2, 'orderly exit'));",
    );
    const zone = join(tmp, 'many.zone');
    const hosts = Array.from({ length: 20_000 }, (_, i) => `h${i} 300 IN A 192.0.2.${i % 256}`);
    writeFileSync(
      zone,
      `$ORIGIN big.test.\n@ 3600 IN SOA ns hostmaster 1 7200 900 1209600 300\n@ 3600 IN NS ns\nns 300 IN A 192.0.2.1\n${hosts.join('\n')}\n`,
    );
    const cli = join(tmp, 'cli.js');
    const run = (...args: string[]) =>
      spawnSync(process.execPath, ['-r', preload, cli, ...args], {
        encoding: 'utf8',
        maxBuffer: 256 * 1024 * 1024,
      });
    // a --print of 20,000 records (megabytes into a pipe) arrives whole
    const printed = run('zone-check', zone, '--origin', 'big.test.', '--print');
    assert.equal(printed.status, 0, printed.stderr);
    assert.equal(printed.stderr, '');
    const answer = JSON.parse(printed.stdout) as { records: unknown[] };
    assert.equal(answer.records.length, 20_003);
    // an error's exit status is kept
    writeFileSync(zone, 'www 300 IN A 192.0.2.300\n');
    const refused = run('zone-check', zone, '--origin', 'big.test.');
    assert.equal(refused.status, 1);
    assert.equal(refused.stderr, '');
    // other commands end as Node ends them
    assert.equal(run('--version').stderr, 'orderly exit');
  });
});
