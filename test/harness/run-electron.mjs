// npm run test:electron: the same integration suites through @vscode/test-electron, which
// downloads a desktop VS Code. For machines with internet access; offline, use npm test
// (code-server harness). The suites write the same results file, checked the same way.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTests } from '@vscode/test-electron';

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const resultsFile = join(projectRoot, 'out', 'test', 'integration-results.json');

async function main() {
  rmSync(resultsFile, { force: true });
  let exitCode = 0;
  try {
    await runTests({
      version: process.env.HOSTLENS_VSCODE_VERSION ?? '1.139.1',
      extensionDevelopmentPath: projectRoot,
      extensionTestsPath: join(projectRoot, 'out', 'test', 'integration', 'index.js'),
      launchArgs: [
        join(projectRoot, 'test', 'fixtures', 'workspace'),
        '--disable-extensions',
        '--disable-workspace-trust',
      ],
      extensionTestsEnv: { HOSTLENS_TEST_RESULTS: resultsFile, HOSTLENS_PROJECT_ROOT: projectRoot },
    });
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    exitCode = 1;
  }
  if (!existsSync(resultsFile)) {
    console.log('0 passed, 1 failed');
    process.exit(1);
  }
  const results = JSON.parse(readFileSync(resultsFile, 'utf8'));
  console.log((results.report ?? []).join('\n'));
  for (const failure of results.failures)
    console.error(`FAILED: ${failure.title}\n  ${failure.error}`);
  console.log(`${results.passed} passed, ${results.failed} failed`);
  process.exit(exitCode === 0 && results.failed === 0 && results.passed > 0 ? 0 : 1);
}

void main();
