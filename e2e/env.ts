import path from 'node:path';

/** Where the end-to-end server runs, and its data: one directory per port, so two runs never clash. */
export const E2E_ROOT = path.resolve(import.meta.dirname, '..');
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3111);
export const E2E_DATA_DIR = path.join(E2E_ROOT, E2E_PORT === 3111 ? '.data-e2e' : `.data-e2e-${E2E_PORT}`);
/** The Google sandbox `npm start` runs beside the server: on the next port, as it prints at start. */
export const E2E_GOOGLE_SANDBOX_URL = `http://localhost:${E2E_PORT + 1}`;
/** The Slack sandbox `npm start` runs beside the server: two ports up. */
export const E2E_SLACK_SANDBOX_URL = `http://localhost:${E2E_PORT + 2}`;
/** The HubSpot sandbox `npm start` runs beside the server: three ports up. */
export const E2E_HUBSPOT_SANDBOX_URL = `http://localhost:${E2E_PORT + 3}`;
