// Conformance with mat/besticon's recorded sessions: each site is replayed from a loopback
// server (every origin routed to it by the injectable connector). Icons the contract covers
// (linked from the page, or /favicon.ico) must come out with besticon's decoded width and
// format; the recorded redirect chain must come out hop for hop.
import assert from 'node:assert/strict';
import { parseDocument } from 'htmlparser2';
import { decodeText } from '../../../../src/engine/web/charset';
import { icons } from '../../../../src/engine/web/icons';
import { redirects } from '../../../../src/engine/web/redirects';
import type { IconsResult, RedirectHop } from '../../../../src/contract/shapes';
import {
  besticonPresent,
  hostKey,
  loadExpectations,
  loadVcr,
  startVcrReplay,
  vcrFileFor,
  type VcrRecord,
  type VcrReplay,
} from '../../../support/besticon-vcr';

const ICON_RELS = new Set([
  'icon',
  'apple-touch-icon',
  'apple-touch-icon-precomposed',
  'mask-icon',
]);

/** The recorded chain from `url`: its hops and the page it ends on. */
function recordedChain(
  records: VcrRecord[],
  url: string,
): { hops: RedirectHop[]; page?: VcrRecord; pageUrl: URL } {
  const hops: RedirectHop[] = [];
  let current = new URL(url);
  const used = new Set<VcrRecord>();
  for (let i = 0; i < 25; i += 1) {
    // The same host and target may be recorded twice (http, then https): take them in order.
    const record = records.find(
      (r) =>
        !used.has(r) &&
        r.host === hostKey(current.host) &&
        r.target === `${current.pathname}${current.search}`,
    );
    if (!record) return { hops, pageUrl: current };
    used.add(record);
    const location = record.headers.find(([n]) => n.toLowerCase() === 'location')?.[1];
    if (record.status < 300 || record.status >= 400 || !location)
      return { hops, page: record, pageUrl: current };
    const next = new URL(location, current);
    hops.push({ status_code: record.status, location: next.href });
    current = next;
  }
  return { hops, pageUrl: current };
}

/** Icon links of the recorded page, read from a whole-document DOM and resolved. */
function linkedIcons(page: VcrRecord | undefined, pageUrl: URL): Set<string> {
  const out = new Set<string>();
  if (!page) return out;
  const contentType = page.headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1];
  const dom = parseDocument(decodeText(page.body, contentType), {
    lowerCaseTags: true,
    lowerCaseAttributeNames: true,
  });
  let base = pageUrl;
  const walk = (nodes: typeof dom.children) => {
    for (const node of nodes) {
      if (!('attribs' in node)) continue;
      if (node.name === 'base' && node.attribs.href) base = new URL(node.attribs.href, pageUrl);
      const rels = (node.attribs.rel ?? '').toLowerCase().split(/\s+/);
      const href = node.attribs.href?.trim();
      if (node.name === 'link' && href && rels.some((r) => ICON_RELS.has(r))) {
        try {
          out.add(new URL(href, base).href);
        } catch {
          // not a URL: nothing to expect
        }
      }
      walk(node.children);
    }
  };
  walk(dom.children);
  return out;
}

describe('web conformance: besticon recorded sessions', function () {
  this.timeout(120_000);
  if (!besticonPresent()) {
    it('skipped: ../shared/corpus/icons/besticon is absent');
    return;
  }
  const sites = loadExpectations().fetch_icons;
  let server: VcrReplay;
  before(async () => {
    server = await startVcrReplay();
  });
  after(() => server.close());
  const load = (records: VcrRecord[]) => server.load(records);

  const tally = {
    sites: 0,
    expected: 0,
    covered: 0,
    matched: 0,
    extra: 0,
    orderSame: 0,
    chains: 0,
    hops: 0,
  };
  const misses: string[] = [];

  for (const site of sites) {
    it(`${site.url}: redirect hops and icons`, async () => {
      const records = loadVcr(vcrFileFor(site.url));
      const chain = recordedChain(records, site.url);
      load(records);
      const hops = await redirects({ url: site.url }, { connector: server.connector });
      assert.deepEqual(hops.locations, chain.hops);
      tally.chains += 1;
      tally.hops += chain.hops.length;

      load(records);
      const result: IconsResult = await icons({ url: site.url }, { connector: server.connector });
      const linked = linkedIcons(chain.page, chain.pageUrl);
      const favicon = new URL('/favicon.ico', chain.pageUrl).href;
      const ours = new Map(result.icons.map((i) => [i.url, i]));
      tally.sites += 1;
      tally.expected += site.icons.length;
      for (const want of site.icons) {
        if (!linked.has(want.url) && want.url !== favicon) continue;
        tally.covered += 1;
        const got = ours.get(want.url);
        if (got && got.width === want.width && got.format === want.format) tally.matched += 1;
        else
          misses.push(
            `${site.url}: ${want.url} ${want.width} ${want.format} -> ${got ? `${got.width} ${got.format}` : 'absent'}`,
          );
      }
      const expectedUrls = new Set(site.icons.map((i) => i.url));
      const extras = result.icons.filter((i) => !expectedUrls.has(i.url));
      tally.extra += extras.length;
      const ourOrder = result.icons.map((i) => i.url).filter((u) => expectedUrls.has(u));
      const theirOrder = site.icons.map((i) => i.url).filter((u) => ours.has(u));
      if (JSON.stringify(ourOrder) === JSON.stringify(theirOrder)) tally.orderSame += 1;
    });
  }

  it('matches every icon the contract covers, with besticon width and format', () => {
    console.log(
      `\n      ${tally.sites} sites; expected icons ${tally.expected}, covered by the contract ${tally.covered}, ` +
        `matched ${tally.matched}; besticon-only well-known probes ${tally.expected - tally.covered}; ` +
        `our icons besticon does not list ${tally.extra}; same order ${tally.orderSame}/${tally.sites}; ` +
        `redirect chains ${tally.chains} (${tally.hops} hops) hop for hop`,
    );
    assert.deepEqual(misses, []);
  });
});
