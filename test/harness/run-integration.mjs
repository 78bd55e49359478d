// npm run test:vscode: runs the mocha suites of test/integration inside a real VS Code
// extension host (code-server 1.139.1 + headless Chromium), offline. The extension is loaded
// from source (extensionDevelopmentPath); the suites' own results file is cross-checked with
// the exit code, so a test that exits the host early cannot pass as green.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format } from 'node:util';
import { launchBrowser, startCodeServer } from './code-server.mjs';

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const testsIndex = join(projectRoot, 'out', 'test', 'integration', 'index.js');
const workspace = join(projectRoot, 'test', 'fixtures', 'workspace');
const resultsFile = join(projectRoot, 'out', 'test', 'integration-results.json');
const RUN_TIMEOUT_MS = Number(process.env.HOSTLENS_VSCODE_TIMEOUT_MS ?? 10 * 60 * 1000);
const verbose = process.env.HOSTLENS_HARNESS_VERBOSE === '1';

async function main() {
  if (!existsSync(testsIndex)) throw new Error(`missing ${testsIndex}: run node esbuild.mjs first`);
  rmSync(resultsFile, { force: true });
  const server = await startCodeServer({
    smokeTestDriver: true,
    env: { HOSTLENS_TEST_RESULTS: resultsFile, HOSTLENS_PROJECT_ROOT: projectRoot },
    extraSettings: { 'hostlens.hover.enabled': true },
    log: verbose ? (s) => console.log(s) : () => {},
  });
  let browser;
  let exitCode = 1;
  try {
    browser = await launchBrowser(server.root);
    const page = browser.pages()[0] ?? (await browser.newPage());
    let finish;
    const finished = new Promise((r) => (finish = r));
    await page.exposeFunction('codeAutomationExit', (code) => finish(Number(code)));
    await page.exposeFunction('codeAutomationLog', (type, args) => {
      if (verbose) printHostLog(type, args);
    });
    const remote = (p) => `vscode-remote://127.0.0.1:${server.port}${p}`;
    const payload = JSON.stringify([
      ['extensionDevelopmentPath', remote(projectRoot)],
      ['extensionTestsPath', remote(testsIndex)],
    ]);
    const url = `${server.url}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(payload)}`;
    await page.goto(url);
    const timer = new Promise((r) => setTimeout(() => r('timeout'), RUN_TIMEOUT_MS));
    const outcome = await Promise.race([finished, timer]);
    if (outcome === 'timeout') {
      console.error(`VS Code suite did not finish within ${RUN_TIMEOUT_MS / 1000} s`);
      await page
        .screenshot({ path: join(projectRoot, 'out', 'test', 'timeout.png') })
        .catch(() => {});
    } else {
      exitCode = outcome;
    }
  } finally {
    await browser?.close().catch(() => {});
    await server.stop();
  }
  exitCode = crossCheck(exitCode);
  process.exit(exitCode);
}

function printHostLog(type, args) {
  const text = format(...(Array.isArray(args) ? args : [args]));
  if (type === 'error') console.error(text);
  else console.log(text);
}

function crossCheck(exitCode) {
  if (!existsSync(resultsFile)) {
    console.error('VS Code suite wrote no results file: the test run did not complete.');
    console.log('0 passed, 1 failed');
    return 1;
  }
  const results = JSON.parse(readFileSync(resultsFile, 'utf8'));
  console.log((results.report ?? []).join('\n'));
  for (const failure of results.failures)
    console.error(`FAILED: ${failure.title}\n  ${failure.error}`);
  const consistent = (results.failed === 0) === (exitCode === 0) && results.completed === true;
  console.log(`\nVS Code integration suite (VS Code ${results.vscodeVersion}, ${results.uiKind}):`);
  console.log(
    `${results.passed} passed, ${results.failed} failed${results.pending ? `, ${results.pending} skipped` : ''}`,
  );
  if (!consistent) {
    console.error(
      `exit code ${exitCode} disagrees with the results file; treating the run as failed`,
    );
    return 1;
  }
  if (results.passed === 0) {
    console.error('no integration test ran');
    return 1;
  }
  return exitCode === 0 ? 0 : 1;
}

main().catch((err) => {
  console.error(err);
  console.log('0 passed, 1 failed');
  process.exit(1);
});
