// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/** Folders that must run in a worker, in Node and in the CLI alike: no DOM globals there. */
const domFree = ['api/**', 'nodes/**', 'workers/**', 'workflow/**'];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'atelier-out/**', 'test-results/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node, ...globals.browser },
    },
    plugins: { 'import-x': importX },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      'import-x/no-cycle': ['error', { maxDepth: 10, ignoreExternal: true }],
      'no-console': 'off',
    },
  },
  {
    files: domFree.map((g) => `${g}/*.ts`).concat(domFree),
    rules: {
      'no-restricted-globals': ['error',
        { name: 'window', message: 'api/, nodes/, workers/ and workflow/ run outside the page: no window.' },
        { name: 'document', message: 'api/, nodes/, workers/ and workflow/ run outside the page: no document.' },
        { name: 'localStorage', message: 'Storage belongs to the editor (src/).' }],
    },
  },
  {
    files: ['src/**/*.tsx', 'src/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
);
