// Lint: typescript-eslint with type information, floating promises as errors, and the
// import boundaries of architecture.md (nothing below engine/ services/ server/ detect/
// webview/ may import vscode; the webview imports only the protocol types).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const noVscode = {
  paths: [{ name: 'vscode', message: 'This layer must not depend on VS Code (architecture.md).' }],
};

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
  {
    files: ['src/engine/**', 'src/services/**', 'src/server/**', 'src/detect/**', 'src/cli.ts'],
    rules: { 'no-restricted-imports': ['error', noVscode] },
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
              regex: '^\\.\\./(?!protocol$)',
              message: 'The webview imports only the protocol types (architecture.md).',
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
