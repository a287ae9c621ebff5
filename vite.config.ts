/**
 * The editor's build. `npm start` serves dist/ from the local server; `npx vite` serves the
 * sources with hot reload and proxies the API paths to that server on 8787.
 */
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type ProxyOptions } from 'vite';

const LOCAL_SERVER = process.env.ATELIER_SERVER ?? 'http://127.0.0.1:8787';

/**
 * The local server refuses a browser Origin other than its own (so no other site can drive the
 * engines); requests from the dev server's page are rewritten to look like its own, and no others.
 */
const toLocalServer: ProxyOptions = {
  target: LOCAL_SERVER,
  changeOrigin: true,
  configure(proxy) {
    proxy.on('proxyReq', (proxyReq, req) => {
      // Only the dev server's own page: its Origin names the host the request was sent to. A page
      // of another local app (another port) keeps its Origin, and the local server refuses it.
      const origin = req.headers.origin;
      if (origin !== undefined && req.headers.host !== undefined && origin === `http://${req.headers.host}`) {
        proxyReq.setHeader('origin', LOCAL_SERVER);
      }
    });
  },
};

/** React's component and context makers, as React Flow's build calls them at its top level. */
const DEFINITION_CALL = /\b(memo|forwardRef|fixedForwardRef|createContext)\(/g;
/** A top-level declaration of React Flow's build: `const Panel = forwardRef(…`. */
const TOP_LEVEL_DECLARATION = /^(?:export )?(?:const|let|var) [\w$]+ = .*$/gm;
const REACT_FLOW_BUILD = /[\\/]node_modules[\\/]@xyflow[\\/]react[\\/]dist[\\/]/;

/**
 * React Flow's build does not mark its top-level memo() and forwardRef() calls as pure, so every
 * component it defines (its NodeToolbar, EdgeToolbar, NodeResizer…) stayed in the start chunk though
 * the editor never draws them. This marks those calls pure in React Flow's files only. Rolldown's
 * `treeshake.manualPureFunctions` cannot be used for it: it goes by name in every module, so it
 * also dropped each `memo.set(…)` whose result went unused (the editor's caches named `memo`, and
 * zod's memoizer), and a cache that never remembers made opening a big workflow quadratic.
 */
export function pureReactFlowDefinitions(): Plugin {
  return {
    name: 'atelier:pure-react-flow-definitions',
    transform(code, id) {
      if (!REACT_FLOW_BUILD.test(id)) return null;
      return { code: code.replace(TOP_LEVEL_DECLARATION, (line) => line.replace(DEFINITION_CALL, '/*#__PURE__*/ $1(')), map: null };
    },
  };
}

/**
 * The modules the page's entry imports statically, found once the module graph is known; the
 * build's `start` chunk group holds them. Without it the bundler cut them into a dozen small
 * chunks, each module shared by the entry and some lazily loaded part getting a chunk of its own,
 * though all of them load at start anyway: more requests, and more bytes, since every file is
 * compressed on its own.
 */
export function startModules(): { plugin: Plugin; has(id: string): boolean } {
  const found = new Set<string>();
  return {
    has: (id) => found.has(id),
    plugin: {
      name: 'atelier:start-modules',
      apply: 'build',
      buildEnd() {
        found.clear();
        const queue = [...this.getModuleIds()].filter((id) => this.getModuleInfo(id)?.isEntry === true);
        for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
          if (found.has(id)) continue;
          found.add(id);
          queue.push(...(this.getModuleInfo(id)?.importedIds ?? []));
        }
      },
    },
  };
}

const start = startModules();

export default defineConfig({
  plugins: [react(), pureReactFlowDefinitions(), start.plugin],
  publicDir: 'public',
  worker: {
    format: 'es',
    // One file: the worker validates and runs as soon as it estimates, so code the nodes fetch on
    // demand (their `load`) would only be one more request at start.
    rolldownOptions: { output: { codeSplitting: false } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // The budget is the gzipped initial JavaScript (bench/editor.bench.ts), not this warning.
    chunkSizeWarningLimit: 800,
    // Every browser the es2022 target allows either has modulepreload or merely loads a little later.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      // zod with api/zod-jitless.ts in one chunk: every module that builds a schema imports zod,
      // so zod's chunk, and the switch from compiled parsers that the Content-Security-Policy
      // needs, runs before any schema is built, whichever chunk the schema is in.
      output: {
        codeSplitting: {
          groups: [
            { name: 'zod', test: /[\\/]node_modules[\\/]zod[\\/]|[\\/]api[\\/]zod-jitless\.ts$/, priority: 2 },
            { name: 'start', test: (id) => start.has(id), priority: 1 },
          ],
        },
      },
    },
  },
  server: {
    proxy: { '/local': toLocalServer, '/forward': toLocalServer, '/api': toLocalServer },
  },
});
