/**
 * The HubSpot sandbox on its own: `npm start -w sandboxes/hubspot -- --port 3004`.
 *
 *   --port N         HUBSPOT_SANDBOX_PORT, default 3004 (0: any free port)
 *   --host H         HUBSPOT_SANDBOX_HOST, default 127.0.0.1
 *   --public-url U   HUBSPOT_SANDBOX_URL, where browsers reach it; default http://localhost:PORT
 *
 * Once it listens it prints its URL and, when started with an IPC channel, sends `{ ready: url }`.
 */
import { parseArgs } from 'node:util';
import { listenHubSpotSandbox } from './server.ts';

const { values } = parseArgs({
  options: { port: { type: 'string' }, host: { type: 'string' }, 'public-url': { type: 'string' } },
});
const port = Number(values.port ?? process.env.HUBSPOT_SANDBOX_PORT ?? 3004);
if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`Invalid port: ${values.port}`);
const host = values.host ?? process.env.HUBSPOT_SANDBOX_HOST ?? '127.0.0.1';
const publicUrl =
  values['public-url'] ?? process.env.HUBSPOT_SANDBOX_URL ?? (port === 0 ? undefined : `http://localhost:${port}`);

const running = await listenHubSpotSandbox({ host, port, publicUrl });
process.stderr.write(`HubSpot sandbox: ${running.url} (notes: ${running.url}/notes)\n`);
process.send?.({ ready: running.url });

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await running.close();
  process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
// Started by the product: if it dies without stopping us, nothing is left behind.
process.on('disconnect', () => void stop());
