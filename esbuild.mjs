// Bundles: the extension (Node, cjs, vscode external), the webview script (browser), the
// command line (dist/cli.js) and, with --tests, the integration suites for the VS Code
// harness. --production minifies; --watch rebuilds on change.
import * as esbuild from 'esbuild';
import { existsSync, readdirSync } from 'node:fs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

const common = {
  bundle: true,
  minify: production,
  sourcemap: production ? false : 'linked',
  logLevel: 'warning',
  legalComments: 'none',
};

const node = { ...common, platform: 'node', format: 'cjs', target: 'node20' };

const integrationSuites = readdirSync('test/integration')
  .filter((f) => f.endsWith('.ts'))
  .map((f) => `test/integration/${f}`);

const builds = [
  {
    ...node,
    entryPoints: ['src/editor/extension.ts'],
    outfile: 'dist/extension.js',
    external: ['vscode'],
  },
  {
    ...node,
    entryPoints: ['src/cli/main.ts'],
    outfile: 'dist/cli.js',
    banner: { js: '#!/usr/bin/env node' },
  },
  {
    ...common,
    entryPoints: ['src/webview/main.ts'],
    outfile: 'dist/webview.js',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
  },
  {
    // Test suites are never shipped; mocha stays external so the harness's copy is used.
    ...node,
    minify: false,
    sourcemap: 'inline',
    entryPoints: integrationSuites,
    outdir: 'out/test/integration',
    external: ['vscode', 'mocha'],
  },
];

// The webview bundle joins once its source exists (it arrives with the first panel).
const present = builds.filter((b) => b.entryPoints.every((e) => existsSync(e)));

if (watch) {
  for (const options of present) {
    const context = await esbuild.context(options);
    await context.watch();
  }
  console.log('[esbuild] watching');
} else {
  await Promise.all(present.map((options) => esbuild.build(options)));
}
