// The differential suites' guard on their reference tools: a tool of another series, or one
// that prints no version, stops the suite with a message that says so.
import assert from 'node:assert/strict';
import { checkSeries, referenceTool } from '../../support/reference-tools';

describe('test support: reference tool versions', () => {
  it('accepts a version of the series the expectations were written for', () => {
    checkSeries('kdig', '/usr/bin/kdig', '3.2.6', '3.2');
    checkSeries('Mail::SPF', 'driver.pl', 'v2.009', 'v2.009');
  });

  it('refuses another series, naming both versions and what to update', () => {
    assert.throws(
      () => checkSeries('named-checkzone', '/usr/bin/named-checkzone', '9.20.1', '9.18'),
      /named-checkzone 9\.20\.1 .* not the 9\.18 series .*reference-tools\.ts/,
    );
    // 3.20 is not 3.2
    assert.throws(
      () => checkSeries('kdig', '/usr/bin/kdig', '3.20.0', '3.2'),
      /not the 3\.2 series/,
    );
  });

  it('refuses a tool that prints no version', () => {
    assert.throws(
      () => checkSeries('delv', '/usr/bin/delv', undefined, '9.18'),
      /printed no version/,
    );
  });

  it('finds an installed tool with its version, or says which package is missing', () => {
    const tool = referenceTool('openssl');
    if (typeof tool === 'string') assert.match(tool, /Debian package openssl/);
    else assert.match(tool.version, /^\d+\.\d+\.\d+$/);
  });
});
