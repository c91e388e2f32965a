import path from 'node:path';
import { defineConfig } from '@playwright/test';

import { E2E_DATA_DIR, E2E_PORT, E2E_ROOT } from './env.ts';

const root = E2E_ROOT;
const port = E2E_PORT;
export const baseURL = `http://localhost:${port}`;

/**
 * The product as a user gets it: `npm start` on a fresh data directory, driven in Debian's Chromium
 * (never a browser Playwright downloads).
 */
export default defineConfig({
  testDir: './tests',
  fullyParallel: true,
  // One at a time: each journey runs a full Google sync and the graph's recompute in the one server
  // process, and two at once on two cores made timings, not behaviour, decide the outcome.
  workers: 1,
  retries: 0,
  forbidOnly: true,
  reporter: [['list']],
  outputDir: path.join(root, port === 3111 ? 'test-results' : `test-results-${port}`),
  timeout: 60_000,
  expect: { timeout: 15_000 },
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    command: `rm -rf ${E2E_DATA_DIR} && npm start`,
    cwd: root,
    url: `${baseURL}/api/health`,
    // The journeys' webhook receivers listen on this machine's loopback.
    env: { DATA_DIR: E2E_DATA_DIR, PORT: String(port), LOG_LEVEL: 'warn', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
    timeout: 240_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
  },
});
