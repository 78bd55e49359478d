// The HTML pages of ../shared/corpus/html-meta (never copied into the project), each with the
// URL it is served at and the title / description its upstream project expects.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseDocument } from 'htmlparser2';

export const HTML_META_ROOT = resolve(__dirname, '../../../shared/corpus/html-meta');

export interface CorpusPage {
  corpus: 'metascraper' | 'readability-pages' | 'unfurl/head' | 'unfurl/v1-2018-realsites';
  id: string;
  file: string;
  url: string;
  contentType: string;
  /** null or undefined: the upstream project expects nothing for the field */
  expected: { title?: string | null; description?: string | null };
}

export function htmlCorpusPresent(): boolean {
  return existsSync(HTML_META_ROOT);
}

export function loadHtmlCorpus(): CorpusPage[] {
  return [...metascraper(), ...readability(), ...unfurlHead(), ...realsites()];
}

function metascraper(): CorpusPage[] {
  const dir = join(HTML_META_ROOT, 'metascraper');
  const tests = JSON.parse(readFileSync(join(dir, 'expectations.json'), 'utf8')) as Array<{
    test: string;
    url: string;
    html: string[];
    expected: Array<{ title?: string | null; description?: string | null }>;
  }>;
  return tests.map((t) => ({
    corpus: 'metascraper',
    id: t.test,
    file: join(dir, 'integration', t.html[0]),
    url: t.url,
    contentType: 'text/html',
    expected: { title: t.expected[0]?.title, description: t.expected[0]?.description },
  }));
}

function readability(): CorpusPage[] {
  const root = join(HTML_META_ROOT, 'readability-pages', 'test-pages');
  const pages: CorpusPage[] = [];
  for (const group of readdirSync(root).sort()) {
    for (const name of readdirSync(join(root, group)).sort()) {
      const file = join(root, group, name, 'source.html');
      const meta = join(root, group, name, 'expected-metadata.json');
      if (!existsSync(file) || !existsSync(meta)) continue;
      const expected = JSON.parse(readFileSync(meta, 'utf8')) as {
        title?: string;
        excerpt?: string;
      };
      pages.push({
        corpus: 'readability-pages',
        id: `${group}/${name}`,
        file,
        url: `http://fakehost/test/${group}/${encodeURIComponent(name)}/`,
        contentType: 'text/html',
        expected: { title: expected.title, description: expected.excerpt },
      });
    }
  }
  return pages;
}

interface UnfurlFixture {
  origin: string;
  path: string;
  status: number;
  file: string;
  headers?: Record<string, string>;
}

function unfurlHead(): CorpusPage[] {
  const dir = join(HTML_META_ROOT, 'unfurl', 'head');
  const tests = JSON.parse(readFileSync(join(dir, 'expectations.json'), 'utf8')) as Array<{
    name: string;
    url: string;
    fixtures: UnfurlFixture[];
    asserts: Array<{ path: string; value?: unknown }>;
  }>;
  const pages: CorpusPage[] = [];
  for (const t of tests) {
    const fixture = t.fixtures.find((f) => `${f.origin}${f.path}` === t.url);
    if (!fixture || fixture.status !== 200) continue;
    const expected: CorpusPage['expected'] = {};
    for (const a of t.asserts) {
      const value = a.value as Record<string, unknown> | string | undefined;
      if (a.path === '' && value && typeof value === 'object') {
        if (typeof value.title === 'string') expected.title = value.title;
        if (typeof value.description === 'string') expected.description = value.description;
      } else if (a.path === 'title' && typeof value === 'string') expected.title = value;
      else if (a.path === 'description' && typeof value === 'string') expected.description = value;
    }
    pages.push({
      corpus: 'unfurl/head',
      id: `${t.name} (${fixture.path})`,
      file: join(dir, 'test', fixture.file),
      url: t.url,
      contentType: fixture.headers?.['Content-Type'] ?? 'text/html',
      expected,
    });
  }
  return pages;
}

function realsites(): CorpusPage[] {
  const dir = join(HTML_META_ROOT, 'unfurl', 'v1-2018-realsites', 'test');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.source.html'))
    .sort()
    .flatMap((f): CorpusPage[] => {
      const name = f.slice(0, -'.source.html'.length);
      const expectedFile = join(dir, `${name}.expected.json`);
      if (!existsSync(expectedFile)) return [];
      const other =
        (JSON.parse(readFileSync(expectedFile, 'utf8')) as { other?: Record<string, unknown> })
          .other ?? {};
      return [
        {
          corpus: 'unfurl/v1-2018-realsites',
          id: name,
          file: join(dir, f),
          url: `http://${name.includes('.') ? name : `${name}.test`}/`,
          contentType: 'text/html',
          expected: {
            title: typeof other.title === 'string' ? other.title : null,
            description: typeof other.description === 'string' ? other.description : null,
          },
        },
      ];
    });
}

export interface ReferenceTags {
  title?: string;
  'og:title'?: string;
  'twitter:title'?: string;
  description?: string;
  'og:description'?: string;
  'twitter:description'?: string;
}

/**
 * The page's own tags read from a whole-document DOM (no early stop), as an independent
 * reference for "the expectation is the page's own tag". First occurrence of each.
 */
export function referenceTags(html: string): ReferenceTags {
  const tags: ReferenceTags = {};
  const walk = (nodes: ReturnType<typeof parseDocument>['children'], inSvg: boolean) => {
    for (const node of nodes) {
      if (!('attribs' in node)) continue;
      const el = node as unknown as {
        name: string;
        attribs: Record<string, string>;
        children: typeof nodes;
      };
      const svg = inSvg || el.name === 'svg';
      if (el.name === 'title' && !svg && tags.title === undefined) {
        tags.title = el.children.map((c) => ('data' in c ? String(c.data) : '')).join('');
      }
      if (el.name === 'meta' && el.attribs.content !== undefined) {
        const key = (el.attribs.property ?? el.attribs.name ?? '').trim().toLowerCase();
        if (
          (key === 'og:title' ||
            key === 'twitter:title' ||
            key === 'og:description' ||
            key === 'twitter:description') &&
          tags[key] === undefined
        ) {
          tags[key] = el.attribs.content;
        }
        const name = el.attribs.name?.trim().toLowerCase();
        if (name === 'description' && tags.description === undefined)
          tags.description = el.attribs.content;
      }
      walk(el.children, svg);
    }
  };
  walk(parseDocument(html, { lowerCaseTags: true, lowerCaseAttributeNames: true }).children, false);
  return tags;
}

/** How expectations and results are compared: whitespace runs collapsed, trimmed. */
export function norm(value: string | null | undefined): string {
  return (value ?? '').replace(/\s+/g, ' ').trim();
}
