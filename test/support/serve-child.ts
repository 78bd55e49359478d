// Runs serve() over the FakeServices test double in a child process, so a test can send it a
// real SIGTERM. Tokens come from HOSTLENS_TOKENS; the exit code is serve()'s.
import { serve } from '../../src/server/main';
import { FakeServices, FIXED } from './fake-services';

const fake = new FakeServices();
// Slow answers, so a request is still in flight when the signal arrives.
fake.behaviour.query = () => {
  process.stdout.write('query started\n');
  return new Promise((resolve) => setTimeout(() => resolve(FIXED.query), 300));
};

void serve({ port: 0 }, process.env, () => fake).then((code) => {
  process.exitCode = code;
});
