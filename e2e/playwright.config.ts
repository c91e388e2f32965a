import path from 'node:path';
import { defineConfig } from '@playwright/test';

const root = path.resolve(import.meta.dirname, '..');
const port = Number(process.env.E2E_PORT ?? 3111);
export const baseURL = `http://localhost:${port}`;
// One data directory per port, so two runs on one machine never delete each other's database.
const dataDir = port === 3111 ? '.data-e2e' : `.data-e2e-${port}`;

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
    command: `rm -rf ${dataDir} && npm start`,
    cwd: root,
    url: `${baseURL}/api/health`,
    env: { DATA_DIR: path.join(root, dataDir), PORT: String(port), LOG_LEVEL: 'warn' },
    timeout: 240_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
  },
});
