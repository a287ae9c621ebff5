// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/** Folders that must run in a worker, in Node and in the CLI alike: no DOM globals there. */
const domFree = ['api/**', 'assets/**', 'nodes/**', 'workers/**', 'workflow/**'];
const noDom = [
  { name: 'window', message: 'api/, assets/, nodes/, workers/ and workflow/ run outside the page: no window.' },
  { name: 'document', message: 'api/, assets/, nodes/, workers/ and workflow/ run outside the page: no document.' },
  { name: 'localStorage', message: 'Storage belongs to the editor (src/).' },
  { name: 'navigator', message: 'api/, assets/, nodes/, workers/ and workflow/ run outside the page: no navigator.' },
];

/**
 * The layers, each folder's imports of the others. A pattern matches an import path reaching
 * one of `folders` at any depth ('../../workflow/schema').
 */
const reaching = (folders, message) => ({ regex: `^(\\.\\./)+(${folders.join('|')})(/|$)`, message });
const ui = { group: ['react', 'react-dom', 'react-dom/*', '@xyflow/*'], message: 'Only the editor (src/) draws: no React here.' };
const layers = [
  { files: ['api/**'], patterns: [reaching(['workflow', 'nodes', 'workers', 'assets', 'src', 'server', 'cli'], 'api/ speaks the two APIs: it knows no graph, no executor, no editor, no server.'), ui] },
  { files: ['workflow/**'], patterns: [reaching(['workers', 'nodes', 'assets', 'src', 'server', 'cli'], 'workflow/ is the file format: it knows no run, no editor, no server.'), ui] },
  { files: ['assets/**'], patterns: [reaching(['nodes', 'workers', 'src', 'server', 'cli'], 'assets/ holds images by reference: it knows no run, no editor, no server.'), ui] },
  { files: ['workers/**'], patterns: [reaching(['src', 'server', 'cli'], 'workers/ is the executor: it knows no page, no server, no CLI.'), ui] },
  { files: ['server/**'], patterns: [reaching(['src'], 'server/ serves the built editor; it imports none of its code.'), ui] },
  { files: ['cli/**'], patterns: [reaching(['src'], 'cli/ runs workflows without the editor; it imports none of its code.'), ui] },
  { files: ['src/store/**'], patterns: [{ regex: '^\\.\\./(canvas|results|run|forms)(/|$)', message: 'The store is the document and its edits: it imports no view.' }] },
];
/** A node's run has no side door: requests, time and chance come from its context. */
const sideDoors = ['fetch', 'XMLHttpRequest', 'WebSocket', 'EventSource', 'setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask', 'crypto', 'performance']
  .map((name) => ({ name, message: `nodes/ reach the world only through the RunContext (ctx.api, ctx.signal, ctx.progress, ctx.randomSeed): no ${name}.` }));

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
    rules: { 'no-restricted-globals': ['error', ...noDom] },
  },
  {
    files: ['nodes/**'],
    rules: {
      'no-restricted-globals': ['error', ...noDom, ...sideDoors],
      'no-restricted-properties': ['error',
        { object: 'Math', property: 'random', message: 'A node gets its randomness from ctx.randomSeed().' },
        { object: 'Date', property: 'now', message: 'A node does not read the clock: the executor times it.' },
        { object: 'globalThis', message: 'nodes/ reach the world only through the RunContext.' }],
      'no-restricted-imports': ['error', { patterns: [
        { group: ['node:*', 'fs', 'fs/*', 'http', 'https', 'net', 'child_process'], message: 'nodes/ run in the browser\'s worker too: no Node modules.' },
        { group: ['react', 'react-dom', '@xyflow/*', '../src/*', '../workers/*', '../cli/*', '../server/*'], message: 'nodes/ know neither the editor, the executor, the CLI nor the server.' },
      ] }],
    },
  },
  ...layers.map(({ files, patterns }) => ({ files, rules: { 'no-restricted-imports': ['error', { patterns }] } })),
  {
    // The page asks, the worker decides: planning, validation, seeds, cost and usage are the run
    // worker's, reached through its API (src/run/worker-client.ts). The page takes types from it.
    files: ['src/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [{
        ...reaching(['workers'], 'The page reaches the run worker through its API (src/run/worker-client.ts): from workers/ it imports types only.'),
        allowTypeImports: true,
      }] }],
    },
  },
  {
    // What the editor's build bundles: `import { type A }` stays in the output as `import {} from`,
    // so the module still loads (and lands in the start chunk); `import type { A }` leaves nothing.
    files: ['src/**', ...domFree],
    rules: { '@typescript-eslint/no-import-type-side-effects': 'error' },
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
