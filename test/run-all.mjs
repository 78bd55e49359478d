// npm test: the checks, the unit tests in Node and the integration suite inside VS Code, in
// that order, then one closing line that counts every test ("total: N passed, N failed").
// The static checks stop the run at the first failure; both test suites always run.
import { spawn } from 'node:child_process';

const checks = [
  ['typecheck', ['run', 'typecheck']],
  ['lint', ['run', 'lint']],
  ['format', ['run', 'format:check']],
];
const suites = [
  // mocha's spec reporter closes with "N passing", "N pending", "N failing".
  [
    'unit',
    ['run', 'test:unit'],
    (out) => ({
      passed: count(out, /(\d+) passing/),
      failed: count(out, /(\d+) failing/),
      skipped: count(out, /(\d+) pending/),
    }),
  ],
  // Guard and socket-error suites, in a network namespace with only loopback (test/netns/run.sh).
  [
    'netns',
    ['run', 'test:netns'],
    (out) => ({
      passed: count(out, /(\d+) passing/),
      failed: count(out, /(\d+) failing/),
      skipped: count(out, /(\d+) pending/),
    }),
  ],
  // The VS Code harness closes with "N passed, N failed[, N skipped]".
  [
    'vscode',
    ['run', 'test:vscode'],
    (out) => {
      const m = /^(\d+) passed, (\d+) failed(?:, (\d+) skipped)?$/m.exec(out);
      return m
        ? { passed: Number(m[1]), failed: Number(m[2]), skipped: Number(m[3] ?? 0) }
        : { passed: 0, failed: 0, skipped: 0 };
    },
  ],
];

function count(text, pattern) {
  const matches = [...text.matchAll(new RegExp(pattern, 'g'))];
  return matches.length === 0 ? 0 : Number(matches.at(-1)[1]);
}

function npm(args) {
  return new Promise((resolve) => {
    const child = spawn('npm', args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      process.stdout.write(chunk);
    });
    child.on('close', (code) => resolve({ code: code ?? 1, out }));
  });
}

for (const [name, args] of checks) {
  const { code } = await npm(args);
  if (code !== 0) {
    console.log(`\n${name} failed`);
    console.log('total: 0 passed, 1 failed');
    process.exit(1);
  }
}

const totals = { passed: 0, failed: 0, skipped: 0 };
let failedSuite = false;
for (const [name, args, parse] of suites) {
  const { code, out } = await npm(args);
  const counts = parse(out);
  // A suite that exits non-zero without a failing test (a crash, a harness error) counts one.
  if (code !== 0 && counts.failed === 0) counts.failed = 1;
  failedSuite ||= code !== 0;
  console.log(
    `\n${name}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`,
  );
  for (const key of Object.keys(totals)) totals[key] += counts[key];
}
console.log(`\ntotal: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedSuite || totals.failed > 0 || totals.passed === 0 ? 1 : 0);
