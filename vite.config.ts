/**
 * The editor's build. `npm start` serves dist/ from the local server; `npx vite` serves the
 * sources with hot reload and proxies the API paths to that server on 8787.
 */
import react from '@vitejs/plugin-react';
import { defineConfig, type ProxyOptions } from 'vite';

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

export default defineConfig({
  plugins: [react()],
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
      output: { codeSplitting: { groups: [{ name: 'zod', test: /[\\/]node_modules[\\/]zod[\\/]|[\\/]api[\\/]zod-jitless\.ts$/ }] } },
      // React Flow's build does not mark its top-level memo() and forwardRef() calls as pure, so
      // every component it defines (its MiniMap, NodeToolbar, EdgeToolbar…) stayed in the start
      // chunk though the editor never draws them. These React functions have no side effects.
      treeshake: { manualPureFunctions: ['memo', 'forwardRef', 'createContext', 'fixedForwardRef'] },
    },
  },
  server: {
    proxy: { '/local': toLocalServer, '/forward': toLocalServer, '/api': toLocalServer },
  },
});
