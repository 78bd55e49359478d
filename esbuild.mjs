// Bundles: the extension (Node, cjs, vscode external), the webview script (browser), the
// command line (dist/cli.js and its chunks in dist/cli/) and the integration suites for the
// VS Code harness. --production minifies; --watch rebuilds on change; `--cli-out DIR` builds
// only the command line, into DIR (tests and benches build their own copy this way).
import * as esbuild from 'esbuild';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';

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
 * The command line in two parts, so that a command loads only what it needs. dist/cli.js is a
 * small launcher (src/cli/bin.ts); main and every command module, imported lazily by the
 * command table, are split into shared chunks in dist/cli/. esbuild splits only ES modules, so
 * the split is made as ES modules (into a scratch folder) and each chunk is then rewritten as
 * CommonJS (commonJsChunks): Node loads an ES module through its ES module loader, which at
 * start loads fs/promises, readline and the streams for itself, and makes an ES module face of
 * every builtin imported (reading all its exports); CommonJS chunks load by plain require.
 */
function cliBuilds(outdir) {
  const scratch = `${outdir}/.cli-esm`;
  return [
    {
      ...node,
      entryPoints: ['src/cli/bin.ts'],
      outfile: `${outdir}/cli.js`,
      banner: { js: '#!/usr/bin/env node' },
      plugins: [externalEntry(/^\.\/main$/, './cli/main.cjs')],
      // require() rather than import(): main is CommonJS
      supported: { 'dynamic-import': false },
    },
    {
      ...node,
      format: 'esm',
      splitting: true,
      entryPoints: { main: 'src/cli/main.ts' },
      outdir: scratch,
      outExtension: { '.js': '.mjs' },
      chunkNames: '[name]-[hash]',
      plugins: [commonJsChunks(scratch, `${outdir}/cli`)],
    },
  ];
}

/**
 * A chunk's exports, once it has run, as plain values. The CommonJS form reads every binding
 * one chunk takes from another through a getter (ES modules' live bindings), on every use: a
 * zone check calls the name and address readers of other chunks a million times. The chunks
 * export functions, classes and constants only (no binding is assigned after its module ran),
 * so the values are the bindings; a chunk that requires one still running (a cycle) keeps the
 * getters, which stay right.
 */
const PLAIN_EXPORTS =
  'module.exports=(m=>{const o=Object.defineProperty({},"__esModule",{value:!0});for(const k of Object.keys(m))o[k]=m[k];return o})(module.exports);';

/** Rewrites the ES module chunks of `from` as CommonJS chunks (.cjs) in `to`, once built. */
function commonJsChunks(from, to) {
  return {
    name: 'commonjs-chunks',
    setup(build) {
      build.onEnd(async (result) => {
        if (result.errors.length > 0) return;
        rmSync(to, { recursive: true, force: true });
        await esbuild.build({
          ...common,
          bundle: false,
          platform: 'node',
          format: 'cjs',
          target: 'node20',
          entryPoints: readdirSync(from)
            .filter((f) => f.endsWith('.mjs'))
            .map((f) => `${from}/${f}`),
          outdir: to,
          outExtension: { '.js': '.cjs' },
          // a lazily imported chunk becomes a require() of it
          supported: { 'dynamic-import': false },
          footer: { js: PLAIN_EXPORTS },
          plugins: [chunkSpecifiers()],
        });
        rmSync(from, { recursive: true, force: true });
      });
    },
  };
}

/** Imports of one chunk by another name the CommonJS chunk ("./chunk-X.mjs" -> ".cjs"). */
function chunkSpecifiers() {
  return {
    name: 'chunk-specifiers',
    setup(build) {
      build.onLoad({ filter: /\.mjs$/ }, (args) => ({
        contents: readFileSync(args.path, 'utf8').replace(
          /(["'])(\.\/[\w.-]+)\.mjs\1/g,
          '$1$2.cjs$1',
        ),
        loader: 'js',
      }));
    },
  };
}

// The chunks' names change with their content: old ones go first, so none is shipped stale.
rmSync(`${cliOut}/cli`, { recursive: true, force: true });
rmSync(`${cliOut}/.cli-esm`, { recursive: true, force: true });

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
