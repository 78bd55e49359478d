import assert from 'node:assert/strict';
import { detectCharset, knownEncoding, prescanMeta } from '../../../../src/engine/web/charset';
import { BODY_BUDGET, extractHead, parseRefresh } from '../../../../src/engine/web/html';
import { extractFromBytes } from '../../../../src/engine/web/page';

describe('web html extraction', () => {
  it('reads title, names, og, twitter and links with entities decoded', () => {
    const head = extractHead(
      '<html><head><title>A &amp; B</title><meta name="Description" content="x &lt; y">' +
        '<meta property="og:title" content="T"><meta name="og:type" content="website">' +
        '<link REL="Shortcut  Icon" href=" /f.ico " sizes="16x16"></head><body></body></html>',
    );
    assert.equal(head.title, 'A & B');
    assert.equal(head.names.get('description'), 'x < y');
    assert.deepEqual(head.openGraph, [
      ['og:title', 'T'],
      ['og:type', 'website'],
    ]);
    assert.deepEqual(head.links, [{ rel: 'shortcut icon', href: '/f.ico', sizes: '16x16' }]);
  });

  it('stops after the body budget without reading the rest', () => {
    const late =
      '<div>' +
      '<span></span>'.repeat(BODY_BUDGET / 10) +
      '<meta name="description" content="too late">';
    const head = extractHead(`<html><head><title>t</title></head><body>${late}</body></html>`);
    assert.equal(head.names.get('description'), undefined);
    const early = extractHead(
      '<html><head></head><body><div><meta name="description" content="early"></div></body></html>',
    );
    assert.equal(early.names.get('description'), 'early');
  });

  it('ignores text of scripts and styles when judging body content', () => {
    const head = extractHead(
      `<html><body><script>${'x'.repeat(5000)}</script><meta name="keywords" content="kept"><p>x</p></body></html>`,
    );
    assert.equal(head.names.get('keywords'), 'kept');
  });

  it('parses refresh values in their common spellings', () => {
    const page = new URL('http://site.test/a/b');
    assert.deepEqual(parseRefresh('0; url=/next', page), {
      delay: 0,
      url: 'http://site.test/next',
    });
    assert.deepEqual(parseRefresh("3;URL='c'", page), { delay: 3, url: 'http://site.test/a/c' });
    assert.deepEqual(parseRefresh('10', page), { delay: 10, url: 'http://site.test/a/b' });
    assert.equal(parseRefresh('soon', page), undefined);
  });

  it('detects the charset: BOM, then header, then meta, then a default', () => {
    const meta = Buffer.from(
      '<meta http-equiv="content-type" content="text/html; charset=Shift_JIS">',
    );
    assert.equal(
      detectCharset(Buffer.from([0xef, 0xbb, 0xbf, 0x41]), 'text/html; charset=gbk').source,
      'bom',
    );
    assert.equal(detectCharset(Buffer.from([0xff, 0xfe, 0x41, 0]), undefined).encoding, 'utf-16le');
    assert.deepEqual(detectCharset(meta, 'text/html; charset="windows-1251"'), {
      encoding: 'windows-1251',
      source: 'header',
      skip: 0,
    });
    assert.deepEqual(detectCharset(meta, 'text/html'), {
      encoding: 'shift_jis',
      source: 'meta',
      skip: 0,
    });
    assert.equal(
      prescanMeta(Buffer.from('<!-- <meta charset="koi8-r"> --><meta charset=euc-jp>')),
      'euc-jp',
    );
    assert.equal(
      detectCharset(Buffer.from('caf\xe9', 'latin1'), undefined).encoding,
      'windows-1252',
    );
    assert.equal(detectCharset(Buffer.from('café'), undefined).encoding, 'utf-8');
    assert.equal(knownEncoding('x-unknown-label'), undefined);
    assert.equal(knownEncoding('utf-16'), 'utf-8');
    assert.equal(
      extractFromBytes(Buffer.from('<meta charset="nonsense"><title>ok</title>')).title,
      'ok',
    );
  });
});
