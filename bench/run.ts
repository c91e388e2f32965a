// Benchmarks: `npm run bench -- <name>`; each writes its figures to bench/results/<name>.json.
import fs from 'node:fs/promises';
import path from 'node:path';
import { dayOne } from './day-one.ts';
import { events } from './events.ts';
import { googleSync } from './google-sync.ts';
import { hostile } from './hostile.ts';
import { hubspot } from './hubspot.ts';
import { importBench } from './import.ts';
import { loadBench } from './load.ts';
import { meBench } from './me.ts';
import { network } from './network.ts';
import { networkRender } from './network-render.ts';
import { scale } from './scale.ts';
import { startup } from './startup.ts';
import { track } from './track.ts';
import { web } from './web.ts';
import { workflows } from './workflows.ts';

/** A benchmark returns its figures, or null when it only prepared its data (nothing to record). */
const BENCHMARKS: Record<string, () => Promise<Record<string, unknown> | null>> = {
  startup,
  'google-sync': googleSync,
  import: importBench,
  network,
  'network-render': networkRender,
  events,
  workflows,
  'day-one': dayOne,
  hubspot,
  track,
  load: loadBench,
  web,
  hostile,
  me: meBench,
  scale,
};

const names = process.argv.slice(2).filter((arg) => arg !== '--');
const selected = names.length > 0 ? names : Object.keys(BENCHMARKS);
for (const name of selected) {
  const benchmark = BENCHMARKS[name];
  if (!benchmark) {
    console.error(`Unknown benchmark "${name}". Known: ${Object.keys(BENCHMARKS).join(', ')}`);
    process.exit(2);
  }
  const measured = await benchmark();
  if (measured === null) continue;
  const figures = { benchmark: name, measuredAt: new Date().toISOString(), ...measured };
  const file = path.join(import.meta.dirname, 'results', `${name}.json`);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, `${JSON.stringify(figures, null, 2)}\n`);
  console.log(JSON.stringify(figures, null, 2));
}
// The figures are written: a handle a bench left open must not keep the runner waiting (the scale
// bench's drain deadline, raced against its import, kept it up to fifteen minutes). What is left is named.
const leftOpen = process.getActiveResourcesInfo().filter((resource) => resource !== 'TTYWrap');
if (leftOpen.length > 0) console.error(`bench: exiting with ${leftOpen.join(', ')} still open`);
process.exit(0);
