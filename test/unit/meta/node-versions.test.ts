// The Node versions the documents state are the ones the tools ask for: package.json's
// engines for building and the command line, and each launcher's own engines (issue 26: the
// README said Node 20.18 while @vscode/test-electron asks for 22).
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

const root = path.join(__dirname, '..', '..', '..');
const json = (file: string) =>
  JSON.parse(readFileSync(path.join(root, file), 'utf8')) as { engines?: { node?: string } };
/** "20.18" from ">=20.18.1", "22" from ">=22". */
const minimum = (range: string | undefined) => {
  const m = /(\d+)(?:\.(\d+))?/.exec(range ?? '');
  assert.ok(m, `a version in "${range}"`);
  return m[2] !== undefined && m[2] !== '0' ? `${m[1]}.${m[2]}` : m[1];
};

describe('Node versions in the documents', () => {
  const developing = readFileSync(path.join(root, 'DEVELOPING.md'), 'utf8');
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');

  it('state the project’s own minimum, from package.json', () => {
    const node = minimum(json('package.json').engines?.node);
    assert.match(developing, new RegExp(`Node\\.js ${node.replace('.', '\\.')} or later`));
    assert.match(readme, new RegExp(`Node\\.js ${node.replace('.', '\\.')} or later`));
  });

  it('say which Node npm run test:electron needs, as @vscode/test-electron asks', () => {
    const wanted = minimum(json('node_modules/@vscode/test-electron/package.json').engines?.node);
    const sentence = developing.split(/(?<=\.)\s/).find((s) => s.includes('npm run test:electron'));
    assert.ok(sentence, 'DEVELOPING.md names npm run test:electron');
    assert.match(sentence, new RegExp(`Node ${wanted} or later`), sentence);
  });
});
