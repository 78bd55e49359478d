// Bundles: the extension (Node, cjs, vscode external), the webview script (browser), the
// command line (dist/cli.js and its chunks in dist/cli/) and the integration suites for the
// VS Code harness. --production minifies; --watch rebuilds on change; `--cli-out DIR` builds
// only the command line, into DIR (tests and benches build their own copy this way).
import * as esbuild from 'esbuild';
import { existsSync, readdirSync, rmSync } from 'node:fs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const cliOutIndex = process.argv.indexOf('--cli-out');
const cliOut = cliOutIndex === -1 ? 'dist' : process.argv[cliOutIndex + 1];

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

// The extension's two bundles import the contract's errors from dist/errors.js, at run time.
const sharedErrors = externalEntry(/(^|\/)contract\/errors$/, './errors.js');

const builds = [
  {
    // The editor part, which activation loads; the engine is dist/engine.js (below).
    ...node,
    entryPoints: ['src/editor/extension.ts'],
    outfile: 'dist/extension.js',
    external: ['vscode'],
    plugins: [externalEntry(/^\.\/servicesBundle$/, './engine.js'), sharedErrors],
    // require() rather than import(): the engine is CommonJS like the editor part.
    supported: { 'dynamic-import': false },
  },
  {
    // Loaded on the first look-up (src/editor/loadServices.ts).
    ...node,
    entryPoints: ['src/editor/servicesBundle.ts'],
    outfile: 'dist/engine.js',
    external: ['vscode'],
    plugins: [sharedErrors],
  },
  {
    // One LookupError class for both: errors cross between them, and are told by instanceof.
    ...node,
    entryPoints: ['src/contract/errors.ts'],
    outfile: 'dist/errors.js',
  },
  ...cliBuilds(cliOut),
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

/** An import of a module that is bundled apart: left to run time, at its built path. */
function externalEntry(filter, path) {
  return {
    name: `external-entry:${path}`,
    setup(build) {
      build.onResolve({ filter }, () => ({ path, external: true }));
    },
  };
}

/**
 * Node's own modules, in the command line's ES module chunks, taken by require() (the chunk's,
 * made from its URL by the banner). An import of a builtin from an ES module makes its ES
 * module face, whose exports read every property of the module: `node:fs` then loads
 * fs/promises, readline and the streams, `node:util` the MIME parser, some 5 ms at every start
 * for modules no command asked for.
 */
function builtinsByRequire() {
  return {
    name: 'builtins-by-require',
    setup(build) {
      build.onResolve({ filter: /^node:/ }, (args) =>
        args.kind === 'import-statement' ? { path: args.path, namespace: 'builtin' } : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: 'builtin' }, (args) => ({
        contents: `module.exports = require(${JSON.stringify(args.path)});`,
        loader: 'js',
      }));
    },
  };
}

/**
 * The command line in two parts, so that a command loads only what it needs. dist/cli.js is a
 * small CommonJS launcher (src/cli/bin.ts: the compile cache, then main); main and every
 * command module, imported lazily by the command table, are ES modules split into shared
 * chunks in dist/cli/ (esbuild splits only ES modules). Bundled CommonJS dependencies call
 * `require`, which an ES module lacks: each chunk makes one from its own URL.
 */
function cliBuilds(outdir) {
  return [
    {
      ...node,
      entryPoints: ['src/cli/bin.ts'],
      outfile: `${outdir}/cli.js`,
      banner: { js: '#!/usr/bin/env node' },
      plugins: [externalEntry(/^\.\/main$/, './cli/main.mjs')],
    },
    {
      ...node,
      format: 'esm',
      splitting: true,
      entryPoints: { main: 'src/cli/main.ts' },
      outdir: `${outdir}/cli`,
      outExtension: { '.js': '.mjs' },
      chunkNames: '[name]-[hash]',
      plugins: [builtinsByRequire()],
      banner: {
        js: "import { createRequire as __hostlensRequire } from 'node:module'; const require = __hostlensRequire(import.meta.url);",
      },
    },
  ];
}

// The chunks' names change with their content: old ones go first, so none is shipped stale.
rmSync(`${cliOut}/cli`, { recursive: true, force: true });

// The webview bundle joins once its source exists (it arrives with the first panel).
const wanted = cliOutIndex === -1 ? builds : cliBuilds(cliOut);
const present = wanted.filter((b) => Object.values(b.entryPoints).every((e) => existsSync(e)));

if (watch) {
  for (const options of present) {
    const context = await esbuild.context(options);
    await context.watch();
  }
  console.log('[esbuild] watching');
} else {
  await Promise.all(present.map((options) => esbuild.build(options)));
}
