// How long one JPEG check holds the event loop (issue 29): checks a 1200 x 630 preview and
// 4000 x 3000 photos, written here by jpeg-js, and prints the milliseconds per check. The
// smooth 4000 x 3000 one fits in an image fetch (maxImageBytes, 1 MiB); the noisy one does not,
// and bounds what a data: URI or a larger cap could cost.
// Run: npx tsx test/bench/jpeg-check-time.ts (say `uptime` with the figures).
import { encode } from 'jpeg-js';
import { jpegSize } from '../../src/engine/web/jpeg-check';

function photo(width: number, height: number, quality: number, noiseBits: number): Buffer {
  const data = Buffer.alloc(width * height * 4);
  let seed = 29;
  for (let i = 0; i < data.length; i += 4) {
    const x = (i / 4) % width;
    const y = Math.floor(i / 4 / width);
    seed = (seed * 1103515245 + 12345) >>> 0;
    const noise = noiseBits > 0 ? seed >>> (32 - noiseBits) : 0; // texture: more AC coefficients
    data[i] = (x * 255) / width + noise;
    data[i + 1] = (y * 255) / height + noise;
    data[i + 2] = ((x + y) * 127) / (width + height) + noise;
    data[i + 3] = 255;
  }
  return Buffer.from(encode({ width, height, data }, quality).data);
}

for (const [width, height, noiseBits, rounds] of [
  [1200, 630, 5, 20],
  [4000, 3000, 0, 5],
  [4000, 3000, 5, 3],
]) {
  const jpeg = photo(width, height, 85, noiseBits);
  const size = jpegSize(jpeg); // warm-up, and the answer
  const times: number[] = [];
  for (let i = 0; i < rounds; i += 1) {
    const start = process.hrtime.bigint();
    jpegSize(jpeg);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  console.log(
    `${width}x${height} ${noiseBits ? 'noisy' : 'smooth'} (${(jpeg.length / 1024).toFixed(0)} KiB): ` +
      `${median.toFixed(1)} ms median ` +
      `(min ${times[0].toFixed(1)}, max ${times[times.length - 1].toFixed(1)}) over ${rounds}, ` +
      `size ${size ? `${size.width}x${size.height}` : 'refused'}`,
  );
}
