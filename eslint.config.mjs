// Lint: typescript-eslint with type information, floating promises as errors, and the
// import boundaries of architecture.md (see the LAYER messages below; the webview imports
// only the protocol types) and the order inside engine/ (ENGINE_ORDER below).
// test/unit/meta/lint-layers.test.ts proves each rule bites.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const noVscode = {
  paths: [{ name: 'vscode', message: 'Only src/editor/ imports vscode (architecture.md).' }],
};

const LAYER = {
  contract: 'contract/ mirrors docs/contract.md and imports nothing of ours (architecture.md).',
  engine: 'engine/ and detect/ import contract/ only, never services/, server/, cli/ or editor/.',
  services: 'services/ sit below the editor, the server and the command line (architecture.md).',
  front: 'The server and the command line speak contract/ and services/, not engine/.',
  editor: 'Editor code speaks contract/ and services/; engine work goes through a service.',
};

/** A pattern refusing relative imports of these top-level folders of src/. */
function ours(folders, message) {
  return { regex: `^(\\.\\./)+(${folders.join('|')})(/|$)`, message };
}

/**
 * The order inside engine/ (src/README.md): the files at its top level (names.ts, guard.ts,
 * agent.ts) at the bottom, then these folders, each importing only from those before it.
 */
const ENGINE_ORDER = ['dns', 'mail', 'zone', 'whois', 'web'];
const ENGINE_ORDER_MESSAGE =
  'Inside engine/ imports point down: its top-level files (names.ts, guard.ts, agent.ts), then dns/, mail/, zone/, whois/, web/ (src/README.md).';

/** The engine folders `folder` may not import: those after it in ENGINE_ORDER. */
function engineAbove(folder) {
  const above = ENGINE_ORDER.slice(ENGINE_ORDER.indexOf(folder) + 1);
  return { regex: `^(\\.\\./)+(${above.join('|')})(/|$)`, message: ENGINE_ORDER_MESSAGE };
}

/** engine/ and detect/: nothing above them. */
function above(layer) {
  return ours(['services', 'server', 'cli', 'editor', 'webview'], LAYER[layer]);
}

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'out/',
      '.vscode-test/',
      'screenshots/',
      'bench-results/',
      'test/fixtures/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      'no-control-regex': 'off',
      eqeqeq: ['error', 'always'],
    },
  },
  // The layers of architecture.md: editor -> services -> engine -> contract; cli and server ->
  // services. Only editor/ imports vscode, and code that does never reaches into engine/.
  {
    files: ['src/contract/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { ...noVscode, patterns: [{ regex: '^\\.\\./', message: LAYER.contract }] },
      ],
    },
  },
  {
    files: ['src/detect/**'],
    rules: { 'no-restricted-imports': ['error', { ...noVscode, patterns: [above('engine')] }] },
  },
  {
    files: ['src/engine/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          ...noVscode,
          patterns: [
            above('engine'),
            { regex: `^\\./(${ENGINE_ORDER.join('|')})(/|$)`, message: ENGINE_ORDER_MESSAGE },
          ],
        },
      ],
    },
  },
  ...ENGINE_ORDER.map((folder) => ({
    files: [`src/engine/${folder}/**`],
    rules: {
      'no-restricted-imports': [
        'error',
        { ...noVscode, patterns: [above('engine'), engineAbove(folder)] },
      ],
    },
  })),
  {
    files: ['src/services/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { ...noVscode, patterns: [ours(['editor', 'server', 'cli', 'webview'], LAYER.services)] },
      ],
    },
  },
  {
    files: ['src/server/**', 'src/cli/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { ...noVscode, patterns: [ours(['editor', 'engine', 'webview'], LAYER.front)] },
      ],
    },
  },
  {
    files: ['src/editor/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [ours(['engine', 'server', 'cli', 'webview'], LAYER.editor)] },
      ],
    },
  },
  {
    files: ['src/webview/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          ...noVscode,
          patterns: [
            {
              // contract/epp (status meanings) and contract/dates (relative dates) are plain
              // data and pure functions shared with the command line.
              regex: '^\\.\\./(?!protocol$|contract/epp$|contract/dates$)',
              message:
                'The webview imports only the protocol types, contract/epp and contract/dates (architecture.md).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      parserOptions: { projectService: false, program: null },
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        URL: 'readonly',
        window: 'readonly',
        fetch: 'readonly',
      },
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-expressions': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
);
