// Entry point VS Code loads as extensionTestsPath: runs every *.test.js beside this file with
// mocha inside the extension host and writes a results file the harness cross-checks.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';
import * as vscode from 'vscode';

interface Failure {
  title: string;
  error: string;
}

export async function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', timeout: 30000, color: false, reporter: 'dot' });
  const grep = process.env.HOSTLENS_TEST_GREP;
  if (grep) mocha.grep(grep);
  for (const file of fs.readdirSync(__dirname).sort()) {
    if (file.endsWith('.test.js')) mocha.addFile(path.join(__dirname, file));
  }
  const failures: Failure[] = [];
  // The harness prints these lines: the browser console it could forward mixes mocha's
  // output with the workbench's own logging.
  const report: string[] = [];
  let passed = 0;
  let pending = 0;
  const failed = await new Promise<number>((resolve) => {
    const runner = mocha.run((count) => resolve(count));
    runner.on('suite', (suite) => {
      if (suite.title) report.push(`  ${suite.fullTitle()}`);
    });
    runner.on('pass', (test) => {
      passed += 1;
      report.push(`    ✓ ${test.title} (${test.duration ?? 0} ms)`);
    });
    runner.on('pending', (test) => {
      pending += 1;
      report.push(`    - ${test.title} (skipped)`);
    });
    runner.on('fail', (test, err: Error) => {
      report.push(`    ✗ ${test.title}`);
      failures.push({ title: test.fullTitle(), error: String(err?.stack ?? err) });
    });
  });
  const resultsFile =
    process.env.HOSTLENS_TEST_RESULTS ?? path.join(__dirname, '..', 'integration-results.json');
  fs.writeFileSync(
    resultsFile,
    JSON.stringify({
      completed: true,
      passed,
      failed,
      pending,
      failures,
      report,
      vscodeVersion: vscode.version,
      uiKind: vscode.env.uiKind === vscode.UIKind.Web ? 'web' : 'desktop',
    }),
  );
  if (failed > 0) throw new Error(`${failed} integration test(s) failed`);
}
