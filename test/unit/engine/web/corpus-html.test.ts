// Conformance with real pages: each html-meta corpus page is served from a loopback server and
// unfurled. Where the upstream expectation is the page's own tag for our field (read from a
// whole-document DOM, independent of the streaming extractor), we must agree.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { decodeText } from '../../../../src/engine/web/charset';
import { unfurl } from '../../../../src/engine/web/unfurl';
import type { UnfurlResult } from '../../../../src/contract/shapes';
import {
  htmlCorpusPresent,
  loadHtmlCorpus,
  norm,
  referenceTags,
  type CorpusPage,
  type ReferenceTags,
} from '../../../support/html-corpus';
import { startReplayServer, type ReplayServer } from '../../../support/web-replay';

type Field = 'title' | 'description';

interface Tally {
  pages: number;
  expected: number;
  ownTag: number;
  agree: number;
  contractTag: number;
  contractAgree: number;
}

const contractValue = (ref: ReferenceTags, field: Field): string =>
  field === 'title'
    ? norm(ref.title) || norm(ref['og:title']) || norm(ref['twitter:title'])
    : norm(ref.description) || norm(ref['og:description']);

const ownTags = (ref: ReferenceTags, field: Field): string[] =>
  (field === 'title'
    ? [ref.title, ref['og:title'], ref['twitter:title']]
    : [ref.description, ref['og:description'], ref['twitter:description']]
  ).map(norm);

describe('web conformance: html-meta corpus pages', function () {
  this.timeout(120_000);
  if (!htmlCorpusPresent()) {
    it('skipped: ../shared/corpus/html-meta is absent');
    return;
  }
  const pages = loadHtmlCorpus();
  // Keyed without the scheme: https origins reach the loopback server as plain HTTP.
  const key = (u: URL) => `${u.host}${u.pathname}${u.search}`;
  const byUrl = new Map<string, CorpusPage>(pages.map((p) => [key(new URL(p.url)), p]));
  let server: ReplayServer;
  const results = new Map<CorpusPage, UnfurlResult | Error>();

  before(async () => {
    server = await startReplayServer((host, target, _req, res) => {
      const page = byUrl.get(key(new URL(target, `http://${host}`)));
      if (!page) {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('not in the corpus');
        return;
      }
      res.writeHead(200, { 'content-type': page.contentType });
      res.end(readFileSync(page.file));
    });
    let next = 0;
    const worker = async () => {
      while (next < pages.length) {
        const page = pages[next++];
        try {
          results.set(
            page,
            await unfurl(
              { url: page.url },
              { connector: server.connector, limits: { maxIcons: 0, totalTimeoutMs: 10_000 } },
            ),
          );
        } catch (err) {
          results.set(page, err as Error);
        }
      }
    };
    await Promise.all([worker(), worker(), worker()]);
  });
  after(() => server.close());

  it('unfurls every page without a crash or a hang', () => {
    const failed = [...results]
      .filter(([, r]) => r instanceof Error)
      .map(([p, r]) => `${p.corpus}/${p.id}: ${(r as Error).message}`);
    assert.deepEqual(failed, []);
    assert.equal(results.size, pages.length);
  });

  it('reads the same tags as a whole-document DOM parse, despite stopping early', () => {
    const differences: string[] = [];
    let compared = 0;
    for (const page of pages) {
      const result = results.get(page);
      if (!result || result instanceof Error) continue;
      const ref = referenceTags(decodeText(readFileSync(page.file), page.contentType));
      const pairs: Array<[string, unknown, string | undefined]> = [
        ['og:title', result.open_graph['og:title'], ref['og:title']],
        ['og:description', result.open_graph['og:description'], ref['og:description']],
        ['twitter:title', result.twitter?.['twitter:title'], ref['twitter:title']],
      ];
      for (const [name, ours, theirs] of pairs) {
        compared += 1;
        if (norm(typeof ours === 'string' ? ours : '') !== norm(theirs)) {
          differences.push(
            `${page.corpus}/${page.id} ${name}: ${JSON.stringify(ours)} vs ${JSON.stringify(theirs)}`,
          );
        }
      }
    }
    console.log(
      `\n      ${compared - differences.length}/${compared} og:title, og:description, twitter:title values identical to the DOM reference`,
    );
    assert.deepEqual(differences, []);
  });

  it('agrees on title and description wherever the expectation is the tag our field reads', () => {
    const tallies = new Map<string, Tally>();
    const misses: string[] = [];
    for (const page of pages) {
      const result = results.get(page);
      if (!result || result instanceof Error) continue;
      const ref = referenceTags(decodeText(readFileSync(page.file), page.contentType));
      for (const field of ['title', 'description'] as const) {
        const key = `${page.corpus} ${field}`;
        const t = tallies.get(key) ?? {
          pages: 0,
          expected: 0,
          ownTag: 0,
          agree: 0,
          contractTag: 0,
          contractAgree: 0,
        };
        tallies.set(key, t);
        t.pages += 1;
        const expected = norm(page.expected[field]);
        if (expected === '') continue;
        t.expected += 1;
        const ours = norm(field === 'title' ? result.page_title : result.page_description);
        if (ours === expected) t.agree += 1;
        if (ownTags(ref, field).includes(expected)) t.ownTag += 1;
        if (contractValue(ref, field) === expected) {
          t.contractTag += 1;
          if (ours === expected) t.contractAgree += 1;
          else
            misses.push(
              `${page.corpus}/${page.id} ${field}: ours ${JSON.stringify(ours)} expected ${JSON.stringify(expected)}`,
            );
        }
      }
    }
    console.log(
      '\n      corpus field: expected / own tag / contract tag / agree on contract tag / agree overall',
    );
    for (const [key, t] of [...tallies].sort()) {
      console.log(
        `      ${key}: ${t.expected} / ${t.ownTag} / ${t.contractTag} / ${t.contractAgree} / ${t.agree} (of ${t.pages} pages)`,
      );
    }
    assert.deepEqual(misses, []);
  });
});
