// The renderers on answers the loopback fixtures do not produce: an SPF tree over the look-up
// limit with a redirect, WHOIS with nothing published or long expired, a redirect chain cut
// short, an empty page, and colour codes that open and close around what they paint.
import * as assert from 'node:assert/strict';
import { fqdn, type RenderContext } from '../../../src/cli/text/context';
import { renderText } from '../../../src/cli/text/index';
import { quote } from '../../../src/cli/text/query';
import { subtreeLookups } from '../../../src/cli/text/spf';
import { makeGlyphs, makeStyle, stripAnsi } from '../../../src/cli/text/style';
import type { SpfRoot, WhoisResult } from '../../../src/contract/shapes';

function context(params: RenderContext['params'] = {}, colour = false): RenderContext {
  return {
    style: makeStyle(colour),
    glyphs: makeGlyphs(false),
    now: new Date('2026-11-01T00:00:00Z'),
    width: Infinity,
    params,
  };
}

describe('text renderers, edge cases', () => {
  it('counts SPF look-ups per node as RFC 7208 section 4.6.4 does', () => {
    assert.equal(
      subtreeLookups({ policy: 'v=spf1 ip4:192.0.2.1 ip6:2001:db8::/32 -all', includes: [] }),
      0,
    );
    assert.equal(
      subtreeLookups({
        policy: 'v=spf1 a mx:mail.example a/24 ptr exists:%{i}.x.example include:a.example ~all',
        includes: [],
      }),
      6,
    );
    assert.equal(subtreeLookups({ policy: 'v=spf1 redirect=_spf.example', includes: [] }), 1);
    // "all" and "a" look alike; "aaaa:" is no mechanism and counts nothing
    assert.equal(subtreeLookups({ policy: 'v=spf1 -all', includes: [] }), 0);
    assert.equal(subtreeLookups({ policy: 'v=spf1 aaaa:x.example -all', includes: [] }), 0);
  });

  it('marks an SPF tree over the limits and a redirect', () => {
    const root: SpfRoot = {
      query_count: 12,
      policy: 'v=spf1 include:a.example redirect=b.example',
      ips: [],
      includes: [
        {
          domain: 'a.example',
          policy: 'v=spf1 ip4:192.0.2.0/24 -all',
          ips: [{ version: 4, cidr_block: '192.0.2.0/24' }],
          includes: [],
          via: 'include',
        },
        { domain: 'b.example', policy: 'v=spf1 -all', ips: [], includes: [], via: 'redirect' },
      ],
      lookup_count: 12,
      void_lookup_count: 3,
      problems: [
        {
          code: 'too_many_lookups',
          domain: 'example.com',
          message: '12 DNS look-ups; the limit is 10',
        },
      ],
    };
    const text = renderText('sender_policy_ranges', root, context({ host: 'example.com' }));
    assert.equal(
      text.split('\n')[0],
      'example.com · 12/10 look-ups (over the limit) · 3/2 void (over the limit)',
    );
    assert.match(text, /│ {3}⚠ 12 DNS look-ups; the limit is 10/);
    assert.match(text, /└── b\.example · redirect · 0 look-ups$/m);
  });

  it('says what WHOIS does not publish, and how long ago a name expired', () => {
    const result: WhoisResult = {
      domain: { domain: 'gone.example', expiration_date: '2026-10-01T00:00:00Z' },
      registrar: {},
    };
    const text = renderText('whois', result, context());
    assert.match(text, /^Registrar +not published$/m);
    assert.match(text, /^Created +not published$/m);
    assert.match(text, /^Expires +2026-10-01 {2}31 days ago \(expired\)$/m);
    assert.match(text, /^Status +none published$/m);
    assert.match(text, /^Name servers +none published$/m);
  });

  it('ends a redirect chain cut short with the reason', () => {
    const text = renderText(
      'redirects',
      {
        locations: [
          { status_code: 301, location: 'https://b.example/' },
          { status_code: 302, location: 'https://c.example/' },
        ],
        error: { code: 'too_many_redirects' },
      },
      context({ url: 'https://a.example/' }),
    );
    assert.deepEqual(text.split('\n'), [
      '1  301  https://a.example/  Moved Permanently',
      '2  302  https://b.example/  Found',
      '3  –    https://c.example/',
      '✗ too many redirects: stopped following',
    ]);
  });

  it('says so when a page has nothing to unfurl', () => {
    const empty = {
      application_name: '',
      canonical_url: '',
      page_description: '',
      icon_url: '',
      page_keywords: '',
      resolved_url: '',
      page_title: '',
      open_graph: {},
    };
    assert.equal(
      renderText('unfurl', empty, context()),
      'The page carries no title, description or card.',
    );
  });

  it('names records by the fully qualified name asked, or an address by its reverse name', () => {
    assert.equal(fqdn('Example.COM'), 'example.com.');
    assert.equal(fqdn('example.com.'), 'example.com.');
    assert.equal(fqdn('bücher.example'), 'xn--bcher-kva.example.');
    assert.equal(fqdn('192.0.2.10'), '10.2.0.192.in-addr.arpa.');
    assert.equal(
      fqdn('2001:db8::10'),
      '0.1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa.',
    );
    assert.equal(fqdn(undefined), '.');
  });

  it('quotes TXT data the way a zone file needs it', () => {
    assert.equal(quote('plain'), '"plain"');
    assert.equal(quote('a "b" c\\d'), '"a \\"b\\" c\\\\d"');
    assert.equal(quote('nul\u0000 del\u007f nl\n'), '"nul\\000 del\\127 nl\\010"');
    assert.equal(quote('café ✓'), '"café ✓"');
  });

  it('closes every colour it opens, so nothing bleeds into the next line', () => {
    const text = renderText(
      'query',
      {
        records: [{ type: 'A', value: '192.0.2.1', ttl: 60 }],
        status: 'NOERROR',
        errors: [{ type: 'MX', code: 'servfail' }],
      },
      context({ host: 'example.test' }, true),
    );
    for (const line of text.split('\n')) {
      const opened = (line.match(/\u001b\[(?:3[0-8]|1|2)m/g) ?? []).length;
      const closed = (line.match(/\u001b\[(?:39|22)m/g) ?? []).length;
      assert.equal(opened, closed, JSON.stringify(line));
    }
    assert.equal(
      stripAnsi(text),
      'example.test.  60  IN  A  192.0.2.1\n\n;; status: NOERROR, 1 record\n;; MX failed: servfail (SERVFAIL: the server could not answer)',
    );
  });
});
