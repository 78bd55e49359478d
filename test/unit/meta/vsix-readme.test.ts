// The extension's page is the README inside the .vsix, shown by VS Code from the installed
// extension's folder: every picture it names must be in the package, or the page shows alt
// text. This packs the extension as `npm run package` does (vsce, relative links kept) and
// reads the README back out of the archive.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

const root = path.join(__dirname, '..', '..', '..');

/** Every image a Markdown page shows: `![alt](src "title")` and `<img src="…">`. */
export function imagesOf(markdown: string): string[] {
  const md = [...markdown.matchAll(/!\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)];
  const html = [...markdown.matchAll(/<img\b[^>]*\bsrc\s*=\s*["']([^"']+)["']/gi)];
  return [...md, ...html].map((m) => m[1]);
}

describe('the packaged extension page (.vsix README)', function () {
  this.timeout(180_000);
  let dir: string;
  let vsix: string;
  let entries: string[];
  let readme: string;

  before(() => {
    if (!existsSync(path.join(root, 'dist', 'extension.js'))) {
      execFileSync(process.execPath, ['esbuild.mjs'], { cwd: root, stdio: 'ignore' });
    }
    dir = mkdtempSync(path.join(tmpdir(), 'hostlens-vsix-'));
    vsix = path.join(dir, 'hostlens.vsix');
    // As `npm run package`: the page is the README without its from-source sections.
    const page = path.join(root, 'dist', 'extension-page.md');
    execFileSync(process.execPath, ['scripts/extension-page.mjs', page], { cwd: root });
    execFileSync(
      path.join(root, 'node_modules', '.bin', 'vsce'),
      [
        'package',
        '--no-dependencies',
        '--no-rewrite-relative-links',
        '--readme-path',
        path.relative(root, page),
        '--out',
        vsix,
      ],
      { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    entries = execFileSync('unzip', ['-Z1', vsix], { encoding: 'utf8' }).split('\n');
    const readmeEntry = entries.find((e) => /^extension\/readme\.md$/i.test(e));
    assert.ok(readmeEntry, 'the package has a README');
    readme = execFileSync('unzip', ['-p', vsix, readmeEntry], { encoding: 'utf8' });
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  it('finds the pictures of Markdown and HTML', () => {
    assert.deepEqual(imagesOf('![a](media/x.png) <img alt="b" src="media/y.png">'), [
      'media/x.png',
      'media/y.png',
    ]);
  });

  it('carries every picture its README names', () => {
    const images = imagesOf(readme);
    assert.ok(images.length >= 5, `the page shows pictures (${images.length})`);
    const packed = new Set(entries);
    for (const image of images) {
      assert.doesNotMatch(image, /^[a-z]+:/i, `${image}: a picture from the package, not the web`);
      const entry = path.posix.join('extension', path.posix.normalize(image));
      assert.ok(packed.has(entry), `${image} is not in the .vsix`);
    }
  });

  it('reads as a page for users, with the developers’ material elsewhere', () => {
    for (const developerOnly of ['npm ci', 'systemd', 'npm test', 'esbuild', 'mocha']) {
      assert.ok(!readme.includes(developerOnly), `"${developerOnly}" belongs in DEVELOPING.md`);
    }
    assert.match(readme, /## Settings/);
    assert.match(readme, /DEVELOPING\.md/);
  });

  it('is packed once, as the page, not also as README.md', () => {
    assert.deepEqual(
      entries.filter((e) => /readme\.md$/i.test(e)),
      ['extension/readme.md'],
    );
  });
});

describe('the repository README', () => {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');

  it('names the two set-up commands: build and install, and npm test', () => {
    assert.match(readme, /npm ci && npm run package && code --install-extension hostlens-/);
    assert.match(readme, /^npm test$/m);
  });

  it('keeps them out of the extension page', async () => {
    const { extensionPage } = await import('../../../scripts/extension-page.mjs');
    const page = extensionPage(readme);
    assert.ok(!page.includes('npm test') && !page.includes('from-source'), page.slice(0, 400));
    assert.match(page, /## Getting started/);
  });

  it('refuses a marker out of pair rather than guess what to leave out', async () => {
    const { extensionPage } = await import('../../../scripts/extension-page.mjs');
    assert.throws(() => extensionPage('a\n<!-- from-source -->\nb\n'), /never closed/);
    assert.throws(() => extensionPage('a\n<!-- /from-source -->\n'), /unpaired/);
    assert.equal(
      extensionPage('a\n\n<!-- from-source -->\nsecret\n<!-- /from-source -->\n\nb\n'),
      'a\n\nb\n',
    );
  });
});
