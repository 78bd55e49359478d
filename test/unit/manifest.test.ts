import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { DNS_TIMEOUT_MS, DNS_TRIES } from '../../src/contract/limits';
import { imageSize } from 'image-size';
import { ZONE_FIRST_LINE_PATTERN } from '../../src/detect';

const root = path.join(__dirname, '..', '..');

interface WalkthroughStep {
  id: string;
  title: string;
  description: string;
  media: { image?: string; svg?: string; markdown?: string; altText?: string };
  completionEvents?: string[];
}

const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  name: string;
  publisher: string;
  icon?: string;
  galleryBanner?: { color?: string; theme?: string };
  categories: string[];
  keywords: string[];
  files?: string[];
  dependencies?: Record<string, string>;
  scripts: Record<string, string>;
  contributes: {
    languages: Array<{ id: string; firstLine?: string; filenamePatterns?: string[] }>;
    commands: Array<{ command: string }>;
    configuration: { properties: Record<string, { default?: unknown }> };
    viewsWelcome: Array<{ view: string; contents: string }>;
    walkthroughs?: Array<{ id: string; title: string; steps: WalkthroughStep[] }>;
  };
};

const commandIds = new Set(manifest.contributes.commands.map((c) => c.command));

/** hostlens.* commands a piece of markdown links to. */
function linkedCommands(markdown: string): string[] {
  return [...markdown.matchAll(/\(command:(hostlens\.[A-Za-z]+)/g)].map((m) => m[1]);
}

// The marketplace's category names (vscode-vsce validates against the same list).
const CATEGORIES = new Set([
  'AI',
  'Azure',
  'Chat',
  'Data Science',
  'Debuggers',
  'Education',
  'Extension Packs',
  'Formatters',
  'Keymaps',
  'Language Packs',
  'Linters',
  'Machine Learning',
  'Notebooks',
  'Other',
  'Programming Languages',
  'SCM Providers',
  'Snippets',
  'Testing',
  'Themes',
  'Visualization',
]);

describe('package.json', () => {
  it('uses the tested first-line pattern for zone files', () => {
    const zone = manifest.contributes.languages.find((l) => l.id === 'dns-zone');
    assert.equal(zone?.firstLine, ZONE_FIRST_LINE_PATTERN);
  });

  it('does not claim db.ts, db.js or db.json as zone files', () => {
    const zone = manifest.contributes.languages.find((l) => l.id === 'dns-zone');
    assert.ok(!zone?.filenamePatterns?.includes('db.*'));
  });

  it('names every command hostlens.*', () => {
    for (const { command } of manifest.contributes.commands)
      assert.match(command, /^hostlens\.[a-z]/);
  });

  it('gives the DNS settings the defaults the engine uses (one definition, contract/limits.ts)', () => {
    const settings = manifest.contributes.configuration.properties;
    assert.equal(settings['hostlens.dns.timeoutMs']?.default, DNS_TIMEOUT_MS);
    assert.equal(settings['hostlens.dns.tries']?.default, DNS_TRIES);
  });

  it('has a 128x128 PNG icon, a gallery banner, marketplace categories and keywords', () => {
    assert.ok(manifest.icon, 'icon');
    const icon = readFileSync(path.join(root, manifest.icon));
    assert.deepEqual(
      { ...imageSize(icon) },
      { height: 128, width: 128, type: 'png' },
      'media/icon.png is made by scripts/media.mjs',
    );
    assert.match(manifest.galleryBanner?.color ?? '', /^#[0-9a-f]{6}$/i);
    assert.ok(['dark', 'light'].includes(manifest.galleryBanner?.theme ?? ''));
    for (const category of manifest.categories) assert.ok(CATEGORIES.has(category), category);
    for (const word of ['dns', 'whois', 'spf', 'dkim', 'dmarc', 'zone file'])
      assert.ok(manifest.keywords.includes(word), word);
    assert.ok(manifest.keywords.length <= 30, 'the marketplace takes 30 keywords at most');
  });

  it('walks a newcomer through five steps, each with a contributed command and a picture', () => {
    const [walkthrough, ...others] = manifest.contributes.walkthroughs ?? [];
    assert.ok(walkthrough);
    assert.deepEqual(others, []);
    assert.deepEqual(
      walkthrough.steps.map((s) => s.id),
      ['lookUp', 'hoverZone', 'checkMail', 'previewLink', 'chooseBackend'],
    );
    for (const step of walkthrough.steps) {
      const linked = linkedCommands(step.description);
      assert.equal(linked.length, 1, `${step.id} links one command`);
      assert.ok(commandIds.has(linked[0]), `${step.id}: ${linked[0]} is contributed`);
      assert.deepEqual(step.completionEvents, [`onCommand:${linked[0]}`]);
      const picture = step.media.image ?? step.media.svg;
      assert.ok(picture, `${step.id} has a picture`);
      assert.ok(existsSync(path.join(root, picture)), `${picture} exists`);
      if (picture.endsWith('.svg')) {
        // The Welcome page inlines an SVG and drops its <style> and classes: a picture must
        // colour itself with attributes (theme colours as var(--vscode-…)).
        const svg = readFileSync(path.join(root, picture), 'utf8');
        assert.ok(!/<style|class=/.test(svg), `${picture} styles with attributes only`);
      }
      assert.ok(step.media.altText, `${step.id} describes its picture`);
      // .vscodeignore lets media/ into the .vsix (test/unit/packages.test.ts reads the list).
      assert.ok(picture.startsWith('media/'), `${picture} is packaged (media/)`);
    }
  });

  it('offers the three most used actions and the tour in the empty Results view', () => {
    const welcome = manifest.contributes.viewsWelcome.find((w) => w.view === 'hostlens.results');
    assert.ok(welcome);
    const actions = welcome.contents
      .split('\n')
      .filter((line) => /^\[[^\]]+\]\(command:hostlens\.[A-Za-z]+\)$/.test(line));
    assert.deepEqual(
      actions.flatMap(linkedCommands),
      ['hostlens.lookUpDnsRecords', 'hostlens.showMailSetup', 'hostlens.previewLink'],
      'each action alone on its line, so VS Code draws it as a button',
    );
    const tour = `${manifest.publisher}.${manifest.name}#${manifest.contributes.walkthroughs?.[0]?.id}`;
    assert.ok(
      welcome.contents.includes(
        `command:workbench.action.openWalkthrough?${encodeURIComponent(JSON.stringify([tour, false]))}`,
      ),
      'the tour link opens this walkthrough',
    );
  });

  it('packs a command line that needs no runtime dependency', () => {
    // dist/cli.js is a bundle: a `dependencies` entry would make `npm install -g` of the packed
    // CLI fetch packages it never loads (test/unit/cli/pack.test.ts installs it offline).
    assert.deepEqual(
      Object.keys(manifest.dependencies ?? {}),
      [],
      'list packages in devDependencies; esbuild bundles them',
    );
    assert.equal(manifest.scripts.prepack, 'node esbuild.mjs --production');
    assert.equal(
      manifest.files,
      undefined,
      'each package has its own list (.npmignore, .vscodeignore)',
    );
  });
});

describe('manifest: what a workspace may not change', () => {
  const raw = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    capabilities?: {
      untrustedWorkspaces?: {
        supported: boolean | 'limited';
        description?: string;
        restrictedConfigurations?: string[];
      };
    };
    contributes: { configuration: { properties: Record<string, { scope?: string }> } };
  };
  const properties = raw.contributes.configuration.properties;

  it('scopes the backend and its URLs to the machine, so no repository can aim the token', () => {
    for (const key of [
      'hostlens.backend',
      'hostlens.domainApiBaseUrl',
      'hostlens.metaApiBaseUrl',
    ]) {
      assert.equal(properties[key]?.scope, 'machine', key);
    }
  });

  it('declares limited support for untrusted workspaces, restricting only real settings', () => {
    const untrusted = raw.capabilities?.untrustedWorkspaces;
    assert.equal(untrusted?.supported, 'limited');
    assert.ok((untrusted?.description ?? '').length > 20);
    assert.ok((untrusted?.restrictedConfigurations ?? []).length > 0);
    for (const key of untrusted?.restrictedConfigurations ?? []) {
      assert.ok(properties[key] !== undefined, key);
    }
  });
});
