// The icons operation over besticon's recorded sites, replayed from a loopback server (no
// network), and what measuring the images costs in it: every image the recordings hold is
// measured as the operation measures it (measureImage: each format's decode check, issue 29)
// and, for reference, by image-size from its headers alone. The ratio is the decode checks'
// time over the operation's time on loopback, where fetching costs almost nothing, so it
// is the largest share the checks can take (target <= 0.25); on a real network it is smaller.
import { imageSize } from 'image-size';
import { icons } from '../../src/engine/web/icons';
import { measureImage } from '../../src/engine/web/image';
import {
  besticonPresent,
  loadExpectations,
  loadVcr,
  startVcrReplay,
  vcrFileFor,
} from '../support/besticon-vcr';
import { jpeg } from '../support/web-images';
import type { BenchRow } from './types';

const ROUNDS = 7;
const TARGET = 0.25;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function timed(work: () => void): number {
  const start = process.hrtime.bigint();
  work();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export default async function iconsBench(): Promise<BenchRow[]> {
  const entry = 'icons: besticon sites replayed on loopback, image decode checks';
  if (!besticonPresent()) {
    const figure = 'skipped: ../shared/corpus absent';
    return [{ entry, figure, target: `ratio <= ${TARGET}`, ratio: Number.NaN, pass: false }];
  }
  const sites = loadExpectations().fetch_icons.map((s) => ({
    url: s.url,
    records: loadVcr(vcrFileFor(s.url)),
  }));
  const server = await startVcrReplay();
  const images = sites.flatMap((s) =>
    s.records.map((r) => r.body).filter((body) => measureImage(body) !== undefined),
  );
  const imageBytes = images.reduce((sum, b) => sum + b.length, 0);
  const runIcons = async () => {
    const start = process.hrtime.bigint();
    for (const site of sites) {
      server.load(site.records);
      await icons({ url: site.url }, { connector: server.connector });
    }
    return Number(process.hrtime.bigint() - start) / 1e6;
  };
  const checks = () => images.forEach((b) => measureImage(b));
  // A preview image's typical size (og:image, 1200 x 630), the heaviest check a panel runs.
  const preview = jpeg(1200, 630);
  const previewCheck = () => measureImage(preview);
  const headers = () =>
    images.forEach((b) => {
      imageSize(new Uint8Array(b));
    });
  try {
    // One warm-up of each, then rounds that alternate, so load from elsewhere hits all alike.
    await runIcons();
    checks();
    headers();
    const operation: number[] = [];
    const decode: number[] = [];
    const header: number[] = [];
    const previewMs: number[] = [];
    previewCheck();
    for (let i = 0; i < ROUNDS; i += 1) {
      operation.push(await runIcons());
      decode.push(timed(checks));
      header.push(timed(headers));
      previewMs.push(timed(previewCheck));
    }
    const ratio = median(decode) / median(operation);
    return [
      {
        entry: `${entry}, ${sites.length} sites, ${images.length} images (${(imageBytes / 1024).toFixed(0)} KB), median of ${ROUNDS}`,
        figure: `decode checks ${median(decode).toFixed(1)} ms/round in an icons round of ${median(operation).toFixed(0)} ms`,
        target: `ratio <= ${TARGET} (checks' share of the operation on loopback)`,
        ratio,
        pass: ratio <= TARGET,
        notes:
          `image-size from headers alone ${median(header).toFixed(2)} ms/round; ` +
          `a 1200 x 630 JPEG (${(preview.length / 1024).toFixed(0)} KB) checked in ${median(previewMs).toFixed(1)} ms`,
      },
    ];
  } finally {
    await server.close();
  }
}
