// The workspace check starts on a file's links while the rest is still to be read, and still
// says each verdict at every place a link is written, later files included; a fragment a later
// file asks about is checked too.
import assert from 'node:assert/strict';
import type { LinkParams, Services } from '../../../../src/contract/services';
import type { LinkResult } from '../../../../src/contract/shapes';
import { checkTexts, type CheckInput } from '../../../../src/services/check/index';

/** Pages by path: a status, and the ids the page has. */
const PAGES: Record<string, { status: number; ids: string[] }> = {
  '/page': { status: 200, ids: ['intro'] },
  '/gone': { status: 404, ids: [] },
};

function scripted(asked: string[]): Services {
  const link = (params: LinkParams): Promise<LinkResult> => {
    const fragments = typeof params.fragments === 'string' ? [params.fragments] : params.fragments;
    asked.push(`link ${params.url}${fragments ? ` [${fragments.join(' ')}]` : ''}`);
    const page = PAGES[new URL(params.url).pathname] ?? { status: 404, ids: [] };
    const result: LinkResult = {
      status: page.status,
      method: fragments ? 'GET' : 'HEAD',
      locations: [],
      final_url: params.url,
    };
    const missing = (fragments ?? []).filter((f) => !page.ids.includes(f));
    if (page.status < 400 && missing.length > 0) result.missing_fragments = missing;
    // answered a little later, as a real fetch is
    return new Promise((resolve) => setTimeout(() => resolve(result), 5));
  };
  return { domain: {}, meta: { link } } as unknown as Services;
}

/** An input whose text, when the check reads it, is noted in `asked`. */
function input(asked: string[], name: string, text: string): CheckInput {
  return {
    file: `/w/${name}`,
    get text() {
      asked.push(`read ${name}`);
      return text;
    },
  };
}

describe('link check: links checked while files are read', function () {
  it('starts a link before the next file is read and reports it at every place, later files’ included', async function () {
    const asked: string[] = [];
    const progress: string[] = [];
    const report = await checkTexts(
      scripted(asked),
      [
        input(asked, 'a.md', 'See [gone](http://192.0.2.1/gone).\n'),
        input(asked, 'b.md', 'Again: http://192.0.2.1/gone\n'),
      ],
      { cwd: '/w', onProgress: ({ done, total }) => progress.push(`${done}/${total}`) },
    );
    // progress is said once the total is known, so the share done never goes back
    assert.deepEqual(progress, ['0/1', '1/1']);
    assert.deepEqual(asked, ['read a.md', 'link http://192.0.2.1/gone', 'read b.md']);
    assert.deepEqual(
      report.findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.kind}`),
      ['a.md:1:12 broken_link', 'b.md:1:8 broken_link'],
    );
    assert.deepEqual(report.checked, { urls: 1, hosts: 0 });
  });

  it('checks again, with every fragment, a link a later file asks a fragment of', async function () {
    const asked: string[] = [];
    const report = await checkTexts(
      scripted(asked),
      [
        input(asked, 'a.md', 'http://192.0.2.1/page\n'),
        input(asked, 'b.md', 'http://192.0.2.1/page#nope and http://192.0.2.1/page#intro\n'),
      ],
      { cwd: '/w' },
    );
    assert.deepEqual(asked, [
      'read a.md',
      'link http://192.0.2.1/page',
      'read b.md',
      'link http://192.0.2.1/page [intro nope]',
    ]);
    assert.deepEqual(
      report.findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.kind} ${f.target}`),
      ['b.md:1:1 missing_fragment http://192.0.2.1/page#nope'],
    );
  });

  it('takes an answer in while a long file is still being read, before the file’s last link', async function () {
    const asked: string[] = [];
    const inner = scripted(asked);
    const services = {
      domain: {},
      meta: {
        link: (params: LinkParams) =>
          inner.meta.link(params).then((result) => {
            asked.push(`answered ${params.url}`);
            return result;
          }),
      },
    } as unknown as Services;
    // Far more reading than the 5 ms the first answer takes: plain lines between two links.
    const text = [
      'http://192.0.2.1/page',
      ...Array.from({ length: 40_000 }, (_, n) => `line ${n} of plain words`),
      'http://192.0.2.2/page',
    ].join('\n');
    await checkTexts(services, [{ file: '/w/long.md', text }], { cwd: '/w' });
    assert.deepEqual(asked, [
      'link http://192.0.2.1/page',
      'answered http://192.0.2.1/page',
      'link http://192.0.2.2/page',
      'answered http://192.0.2.2/page',
    ]);
  });
});
