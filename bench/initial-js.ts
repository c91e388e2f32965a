// What a page's first script is made of, without a browser or a seeded workspace: builds the web app in
// memory (apps/web/dist is left alone) and follows the static imports from the entry and the page's
// screens (app/screens.ts, as firstScreen.ts starts them). `npx tsx bench/initial-js.ts [detail]`;
// `detail` adds each chunk's size and the biggest modules of the big chunks. The figures of record
// stay `npm run bench -- web`'s, as Chromium requests the files.
import path from 'node:path';
import zlib from 'node:zlib';
import { build, type Plugin, type Rollup } from 'vite';
import { REPO_ROOT } from '../apps/server/src/config.ts';

/** Each page and the screen modules it shows first (app/screens.ts's firstScreensOf). */
const PAGES: Record<string, readonly string[]> = {
  '/network': ['app/AppLayout.tsx', 'features/network/pages/NetworkPage.tsx'],
  '/sign-up/connect': ['features/onboarding/pages/ConnectPage.tsx'],
};
/** Chunks at least this big (minified) have their modules listed with `detail`. */
const BIG_CHUNK = 20_000;

const detail = process.argv.includes('detail');

function sizes(code: string) {
  return {
    raw: Buffer.byteLength(code),
    gzip: zlib.gzipSync(code, { level: 9 }).length,
    brotli: zlib.brotliCompressSync(code).length,
  };
}

/** The chunk and every chunk it imports statically, as the browser fetches them before running it. */
function closure(roots: readonly Rollup.OutputChunk[], byFile: ReadonlyMap<string, Rollup.OutputChunk>) {
  const seen = new Map<string, Rollup.OutputChunk>();
  const visit = (chunk: Rollup.OutputChunk) => {
    if (seen.has(chunk.fileName)) return;
    seen.set(chunk.fileName, chunk);
    for (const imported of chunk.imports) {
      const next = byFile.get(imported);
      if (next) visit(next);
    }
  };
  for (const root of roots) visit(root);
  return [...seen.values()];
}

/** A module's package (node_modules/<name> or <@scope/name>), or its path in the repository. */
function owner(rawId: string): string {
  // Rolldown's own helpers are named with a leading NUL.
  const id = rawId.replaceAll('\0', '');
  const inModules = id.split(/node_modules[\\/]/).at(-1) ?? id;
  if (inModules === id) return path.relative(REPO_ROOT, id);
  const parts = inModules.split(/[\\/]/);
  return parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] ?? id);
}

function report(chunks: readonly Rollup.OutputChunk[]) {
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const entry = chunks.find((chunk) => chunk.isEntry);
  if (!entry) throw new Error('The build has no entry chunk');
  for (const [page, screens] of Object.entries(PAGES)) {
    const roots = screens.map((screen) => {
      const chunk = chunks.find((candidate) => candidate.facadeModuleId?.endsWith(screen));
      if (!chunk) throw new Error(`No chunk for ${screen}`);
      return chunk;
    });
    const files = closure([entry, ...roots], byFile).map((chunk) => ({ file: chunk.fileName, ...sizes(chunk.code) }));
    const total = { raw: 0, gzip: 0, brotli: 0 };
    for (const file of files) {
      total.raw += file.raw;
      total.gzip += file.gzip;
      total.brotli += file.brotli;
    }
    console.log(`${page}: ${files.length} JS files, raw ${total.raw}, gzip ${total.gzip}, brotli ${total.brotli}`);
    if (detail)
      for (const file of files.sort((a, b) => b.gzip - a.gzip))
        console.log(`  ${file.gzip}\t${file.raw}\t${file.file}`);
  }
  if (!detail) return;
  for (const chunk of chunks.filter((candidate) => candidate.code.length >= BIG_CHUNK)) {
    console.log(`${chunk.fileName}: modules by package, rendered size before minifying`);
    const byOwner = new Map<string, number>();
    for (const [id, module] of Object.entries(chunk.modules))
      byOwner.set(owner(id), (byOwner.get(owner(id)) ?? 0) + module.renderedLength);
    for (const [name, length] of [...byOwner].sort((a, b) => b[1] - a[1]).slice(0, 20))
      console.log(`  ${length}\t${name}`);
  }
}

const reporter: Plugin = {
  name: 'bench:initial-js',
  generateBundle(_options, bundle) {
    report(Object.values(bundle).filter((output): output is Rollup.OutputChunk => output.type === 'chunk'));
  },
};

await build({
  root: path.join(REPO_ROOT, 'apps/web'),
  logLevel: 'warn',
  plugins: [reporter],
  build: { write: false },
});
