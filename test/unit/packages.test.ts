// What each package carries (issue 24): the .vsix the extension alone, built with
// .vscodeignore (its two bundles, the webview script, media, grammar); the npm package the
// command line alone (.npmignore: the launcher and its chunks), which installs and runs with
// only Node (test/unit/cli/pack.test.ts). Read from the packers' own listings, without building.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const exec = promisify(execFile);
const ROOT = join(__dirname, '..', '..');

describe('the two packages', function () {
  this.timeout(120_000);

  // The listings name the files that exist: the bundles are built as `npm pack` builds them.
  before(() => exec(process.execPath, ['esbuild.mjs', '--production'], { cwd: ROOT }));

  it('packs the extension alone into the .vsix', async () => {
    const vsce = join(ROOT, 'node_modules', '.bin', 'vsce');
    const { stdout } = await exec(vsce, ['ls', '--no-dependencies'], { cwd: ROOT });
    const files = stdout.split('\n').filter((f) => f !== '');
    for (const needed of [
      'package.json',
      'dist/extension.js',
      'dist/engine.js',
      'dist/errors.js',
      'dist/webview.js',
      'syntaxes/dns-zone.tmLanguage.json',
      'language-configuration.json',
      'media/icon.png',
      'README.md',
      'LICENSE',
    ])
      assert.ok(files.includes(needed), `${needed} in the .vsix`);
    const stray = files.filter(
      (f) =>
        !/^(package\.json|README\.md|LICENSE|CHANGELOG\.md|language-configuration\.json)$/.test(
          f,
        ) &&
        !/^(media|syntaxes)\//.test(f) &&
        !/^dist\/(extension|engine|errors|webview)\.js$/.test(f),
    );
    assert.deepEqual(stray, [], 'nothing else: no sources, maps, tests or command line');
  });

  it('packs the command line alone into the npm package', async () => {
    const { stdout } = await exec('npm', ['pack', '--dry-run', '--ignore-scripts', '--json'], {
      cwd: ROOT,
    });
    const [pack] = JSON.parse(stdout) as { files: { path: string }[] }[];
    const files = pack.files.map((f) => f.path);
    for (const needed of ['package.json', 'dist/cli.js', 'README.md', 'LICENSE'])
      assert.ok(files.includes(needed), `${needed} in the npm package`);
    const stray = files.filter(
      (f) =>
        !/^(package\.json|README\.md|LICENSE|CHANGELOG\.md|dist\/cli\.js)$/.test(f) &&
        !/^dist\/cli\/[^/]+\.cjs$/.test(f),
    );
    assert.deepEqual(stray, [], 'nothing else: no extension, maps, media or sources');
  });
});
