// Regenerates the marketplace icon and the walkthrough pictures with the headless Chromium the
// screenshot harness uses:
//   media/icon.png               128x128, media/hostlens.svg's globe and lens on a tile
//   media/walkthrough/*.png      close-ups cut from the README's pictures (media/readme, else
//                                docs/screenshots; both copied from npm run screenshots)
//   node scripts/media.mjs   (then review and commit media/)
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_PATH } from '../test/harness/versions.mjs';

const root = join(import.meta.dirname, '..');
const media = join(root, 'media');
const shotDirs = [join(media, 'readme'), join(root, 'docs', 'screenshots')];
const shot = (name) => {
  const dir = shotDirs.find((d) => existsSync(join(d, name)));
  if (dir === undefined) throw new Error(`${name} is in none of ${shotDirs.join(', ')}`);
  return join(dir, name);
};

/** The activity-bar glyph drawn white on a blue tile, the shape the marketplace expects. */
function iconSvg() {
  const glyph = readFileSync(join(media, 'hostlens.svg'), 'utf8');
  const inner = glyph.replace(/^[\s\S]*?<svg[^>]*>/, '').replace(/<\/svg>\s*$/, '');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128">
  <defs>
    <linearGradient id="tile" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#2b8ad1"/>
      <stop offset="1" stop-color="#12324a"/>
    </linearGradient>
  </defs>
  <rect width="128" height="128" rx="26" fill="url(#tile)"/>
  <g transform="translate(13.6 13.6) scale(4.2)" fill="none" stroke="#ffffff" stroke-width="1.6"
     stroke-linecap="round" stroke-linejoin="round">${inner}</g>
</svg>`;
}

/** [output, source screenshot, x, y, width, height] */
const CROPS = [
  ['look-up', '03-zone-hover.png', 48, 36, 302, 524],
  ['zone-hover', '03-zone-hover.png', 352, 36, 748, 664],
  ['mail', '12-mail-tree.png', 48, 36, 560, 548],
  ['preview', '07-preview.png', 352, 36, 908, 684],
];

const browser = await chromium.launch({
  executablePath: CHROMIUM_PATH,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.setContent(
    `<html><body style="margin:0;background:transparent">${iconSvg()}</body></html>`,
  );
  writeFileSync(
    join(media, 'icon.png'),
    await page.screenshot({ clip: { x: 0, y: 0, width: 128, height: 128 }, omitBackground: true }),
  );
  for (const [name, source, x, y, width, height] of CROPS) {
    const data = readFileSync(shot(source)).toString('base64');
    await page.setContent(
      `<html><body style="margin:0"><img src="data:image/png;base64,${data}"></body></html>`,
    );
    await page.waitForFunction(() => window.document.images[0]?.complete);
    writeFileSync(
      join(media, 'walkthrough', `${name}.png`),
      await page.screenshot({ clip: { x, y, width, height } }),
    );
  }
} finally {
  await browser.close();
}
