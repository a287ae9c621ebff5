import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
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
