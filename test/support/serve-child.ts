// Runs serve() over the FakeServices test double in a child process, so a test can send it a
// real SIGTERM or close its standard output. Tokens come from HOSTLENS_TOKENS; the exit code is
// serve()'s. HOSTLENS_TEST_QUERY_MS sets how long a query takes (default 300; it honours
// cancellation), HOSTLENS_TEST_GRACE_MS the shutdown grace period (default serve()'s).
import { defaultIo, serve } from '../../src/server/main';
import { FakeServices, FIXED } from './fake-services';

const queryMs = Number(process.env.HOSTLENS_TEST_QUERY_MS ?? 300);
const graceMs = process.env.HOSTLENS_TEST_GRACE_MS;

const fake = new FakeServices();
// Slow answers, so a request is still in flight when the signal arrives. The marker goes to
// stderr: stdout is the stream a test may close under the server.
fake.behaviour.query = (_params, options) => {
  process.stderr.write('query started\n');
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => resolve(FIXED.query), queryMs);
    options.signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(Object.assign(new Error('aborted'), { name: 'AbortError' }));
    });
  });
};

const io = { ...defaultIo(), ...(graceMs ? { graceMs: Number(graceMs) } : {}) };
void serve({ port: 0 }, process.env, () => fake, io).then((code) => {
  process.exitCode = code;
});
