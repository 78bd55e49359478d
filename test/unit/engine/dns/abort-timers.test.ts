// A cancelled DNS look-up lets go of its try timers at once (issue 29): after `hostlens serve`
// cuts its last requests at shutdown, the process exits instead of lingering until each try
// would have timed out. Run in a child process, whose exit is the thing measured.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

const QUERY = resolve(__dirname, '../../../../src/engine/dns/query.ts');

// A nameserver that never answers, a look-up of five types with 5 s tries, cancelled after
// 100 ms; then nothing is left but what the engine still holds.
const SCRIPT = `
import { createSocket } from 'node:dgram';
const engine = await import(${JSON.stringify(QUERY)});
const query = engine.query ?? engine.default.query;
const silent = createSocket('udp4');
await new Promise((r) => silent.bind(0, '127.0.0.1', r));
const controller = new AbortController();
const asked = query(
  { host: 'silent.test', types: ['A', 'AAAA', 'MX', 'TXT', 'NS'], server: '127.0.0.1:' + silent.address().port },
  { signal: controller.signal, timeoutMs: 5000, tries: 3 },
).catch((err) => err.code);
setTimeout(() => controller.abort(), 100);
console.log(await asked);
silent.close();
console.log('cancelled at', Math.round(performance.now()));
`;

describe('engine/dns: a cancelled look-up holds no timer', () => {
  it('the process exits at once after the look-up is cancelled', async function () {
    this.timeout(20_000);
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', SCRIPT],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    let cancelledAt = 0;
    const exited = new Promise<number>((done) =>
      child.on('exit', () => {
        cancelledAt = Number(/cancelled at (\d+)/.exec(out)?.[1] ?? NaN);
        done(performance.now());
      }),
    );
    const started = performance.now();
    const exitAt = await exited;
    assert.match(out, /^cancelled$/m, err);
    // Child time of the cancellation against our time of its exit: the lingering it shows
    // was a whole try (5 s); start-up of tsx is on the child's clock before cancelledAt.
    const lingered = exitAt - started - cancelledAt;
    assert.ok(lingered < 1500, `the process lingered ${Math.round(lingered)} ms after the cancel`);
  });
});
