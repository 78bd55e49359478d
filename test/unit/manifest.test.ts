import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { ZONE_FIRST_LINE_PATTERN } from '../../src/detect';

const manifest = JSON.parse(
  readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8'),
) as {
  contributes: {
    languages: Array<{ id: string; firstLine?: string; filenamePatterns?: string[] }>;
    commands: Array<{ command: string }>;
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
});
