// Event-loop stall of `hostlens serve` while it sizes a large JPEG icon: /healthz latency
// polled every 2 ms during 5 /meta/icons requests for a loopback page whose icon is the JPEG
// (written here by jpeg-js, quality 85). Run from the repository after `node esbuild.mjs`:
//   node test/bench/jpeg-serve-stall.mjs dist/cli.js 4000 3000   (say `uptime` with it)
import { createRequire } from 'node:module';
import { spawn } from 'node:child_process';
import http from 'node:http';
import { join } from 'node:path';
const require = createRequire(join(process.cwd(), 'package.json'));
const { encode } = require('jpeg-js');
const [cli, width, height] = [process.argv[2], +process.argv[3], +process.argv[4]];
const TOKEN = 'jpeg-serve-stall-bench-token';
// A gradient, as in test/support/web-images.ts.
const data = Buffer.alloc(width * height * 4);
for (let i = 0; i < data.length; i += 4) {
  const x = (i / 4) % width;
  const y = Math.floor(i / 4 / width);
  data[i] = (x * 255) / width;
  data[i + 1] = (y * 255) / height;
  data[i + 2] = ((x + y) * 127) / (width + height);
  data[i + 3] = 255;
}
const jpeg = Buffer.from(encode({ width, height, data }, 85).data);
const site = http
  .createServer((req, res) => {
    if (req.url === '/big.jpg') {
      res.writeHead(200, { 'content-type': 'image/jpeg' });
      res.end(jpeg);
    } else if (req.url.startsWith('/?') || req.url === '/') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><head><link rel="icon" href="/big.jpg"></head></html>');
    } else {
      res.writeHead(404);
      res.end();
    }
  })
  .listen(0, '127.0.0.1');
await new Promise((r) => site.once('listening', r));
// --allow-private: the page is on loopback. Port 0; the port is read from serve's first line.
const serve = spawn(process.execPath, [cli, 'serve', '--port', '0', '--allow-private'], {
  env: { ...process.env, HOSTLENS_TOKENS: TOKEN },
  stdio: ['ignore', 'pipe', 'pipe'],
});
const port = await new Promise((resolve, reject) => {
  let said = '';
  const read = (chunk) => {
    said += chunk;
    const match = /listening on http:\/\/[^:]+:(\d+)/.exec(said);
    if (match) resolve(Number(match[1]));
  };
  serve.stdout.on('data', read);
  serve.stderr.on('data', read);
  serve.once('exit', (code) => reject(new Error(`serve exited (${code}): ${said}`)));
});
const get = (path, auth) =>
  new Promise((resolve, reject) => {
    const t = process.hrtime.bigint();
    http
      .get(
        {
          host: '127.0.0.1',
          port,
          path,
          headers: auth ? { authorization: `Bearer ${TOKEN}` } : {},
        },
        (res) => {
          let b = '';
          res.on('data', (c) => (b += c));
          res.on('end', () =>
            resolve({
              ms: Number(process.hrtime.bigint() - t) / 1e6,
              body: b,
              status: res.statusCode,
            }),
          );
        },
      )
      .on('error', reject);
  });
let probing = true;
const healthz = [];
const probe = (async () => {
  while (probing) {
    healthz.push((await get('/healthz')).ms);
    await new Promise((r) => setTimeout(r, 2));
  }
})();
const icons = [];
for (let i = 0; i < 5; i++) {
  const r = await get(
    `/meta/icons?url=${encodeURIComponent(`http://127.0.0.1:${site.address().port}/?n=${i}`)}`,
    true,
  );
  const sizes = (JSON.parse(r.body).icons ?? []).map((icon) => [icon.width, icon.height]);
  icons.push(`${r.status} ${r.ms.toFixed(0)} ms, sizes ${JSON.stringify(sizes)}`);
}
probing = false;
await probe;
serve.kill();
site.close();
healthz.sort((a, b) => a - b);
const at = (q) => healthz[Math.min(healthz.length - 1, Math.floor(healthz.length * q))].toFixed(1);
console.log(
  `${width}x${height} JPEG icon (${(jpeg.length / 1024).toFixed(0)} KiB): /icons ${icons.join('; ')}`,
);
console.log(
  `/healthz meanwhile: ${healthz.length} polls, median ${at(0.5)} ms, p95 ${at(0.95)} ms, ` +
    `max ${at(1)} ms`,
);
