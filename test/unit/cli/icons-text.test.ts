// `hostlens icons` as text lists an icon the page declares but cannot be fetched, with the
// HTTP status it answered, as the JSON does.
import * as assert from 'node:assert/strict';
import type { IconsResult } from '../../../src/contract/shapes';
import { renderText } from '../../../src/cli/text/index';
import { makeGlyphs, makeStyle } from '../../../src/cli/text/style';

describe('hostlens icons as text', () => {
  it('shows a declared icon that answered 404 with its status, and an oversized one as such', () => {
    const result: IconsResult = {
      canonical_url: '',
      icon_url: 'http://site.test/a.png',
      icons: [
        { rel: 'icon', url: 'http://site.test/a.png', width: 32, height: 32, format: 'png' },
        { rel: 'icon', url: 'http://site.test/big.png', width: 0, height: 0, reason: 'too_large' },
        {
          rel: 'apple-touch-icon',
          url: 'http://site.test/gone.png',
          width: 0,
          height: 0,
          reason: 'http_error',
          status: 404,
        },
      ],
    };
    const text = renderText('icons', result, {
      style: makeStyle(false),
      glyphs: makeGlyphs(false),
      now: new Date(),
      width: Infinity,
      params: {},
    });
    assert.match(text, /^apple-touch-icon +0x0 +HTTP 404 +http:\/\/site\.test\/gone\.png$/m);
    assert.match(text, /^icon +0x0 +too large +http:\/\/site\.test\/big\.png$/m);
  });
});
