// Writes the extension's page, the README VS Code shows for the installed extension, from the
// repository README: the same text without its "from a checkout" sections, which are for
// people building HostLens, not for its users (issue #26, item 10). The sections are marked
//   <!-- from-source -->  …  <!-- /from-source -->
// `npm run package` packs the result (vsce --readme-path dist/extension-page.md).
//   node scripts/extension-page.mjs [OUT]
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const root = join(import.meta.dirname, '..');
const START = '<!-- from-source -->';
const END = '<!-- /from-source -->';

/** The README without its marked sections; a marker out of pair is an error, not a guess. */
export function extensionPage(readme) {
  const kept = [];
  let inside = false;
  for (const line of readme.split('\n')) {
    const marker = line.trim();
    if (marker === START || marker === END) {
      if ((marker === START) === inside) throw new Error(`README.md: unpaired ${marker}`);
      inside = !inside;
      continue;
    }
    if (!inside) kept.push(line);
  }
  if (inside) throw new Error(`README.md: ${START} is never closed`);
  return kept.join('\n').replace(/\n{3,}/g, '\n\n');
}

if (process.argv[1] === import.meta.filename) {
  const out = process.argv[2] ?? join(root, 'dist', 'extension-page.md');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, extensionPage(readFileSync(join(root, 'README.md'), 'utf8')));
}
