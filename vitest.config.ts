import { configDefaults, defineConfig } from 'vitest/config';
import { d3Lite } from './scripts/d3-lite';

export default defineConfig({
  // React Flow's d3 modules get the editor's stand-ins, as in the build (scripts/d3-lite.ts).
  plugins: [d3Lite()],
  test: {
    environment: 'node',
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'tests/e2e/**'],
          setupFiles: ['tests/setup/on-demand.ts'],
          // d3 through Vite's resolver (not Node's), so d3-zoom imports the stand-ins as the page does.
          server: { deps: { inline: [/[\\/]d3-[a-z]+[\\/]/] } },
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        // The editor in a real Chromium against the built app and the local server. One file at a
        // time (one browser, one server), after the unit tests so they do not fight for the cores.
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/e2e/setup/global-setup.ts'],
          fileParallelism: false,
          sequence: { groupOrder: 1 },
          testTimeout: 60_000,
          // The first setup may build the editor and install Chromium.
          hookTimeout: 240_000,
        },
      },
    ],
  },
});
