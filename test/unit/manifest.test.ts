import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { DNS_TIMEOUT_MS, DNS_TRIES } from '../../src/contract/limits';
import { ZONE_FIRST_LINE_PATTERN } from '../../src/detect';

const manifest = JSON.parse(
  readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8'),
) as {
  contributes: {
    languages: Array<{ id: string; firstLine?: string; filenamePatterns?: string[] }>;
    commands: Array<{ command: string }>;
    configuration: { properties: Record<string, { default?: unknown }> };
  };
};

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
});
