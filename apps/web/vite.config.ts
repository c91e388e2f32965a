import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const backend = 'http://localhost:3000';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
/** Text the browser loads; images and fonts are compressed already. */
const COMPRESSIBLE = /\.(?:html|js|css|svg|json|txt)$/;

/**
 * Writes a brotli (.br) and a gzip (.gz) copy beside each text file of the build, at the highest
 * levels: compressed once here, the server sends them as they are (@fastify/static's preCompressed)
 * instead of compressing on every request or not at all.
 */
function precompress(): Plugin {
  return {
    name: 'warmpath:precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const outDir = options.dir ?? '';
      const files = Object.keys(bundle).filter((file) => COMPRESSIBLE.test(file));
      await Promise.all(
        files.map(async (file) => {
          const target = path.join(outDir, file);
          const content = await fs.readFile(target);
          const copies = [
            [
              '.br',
              await brotli(content, {
                params: {
                  [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
                  [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.length,
                },
              }),
            ],
            ['.gz', await gzip(content, { level: zlib.constants.Z_BEST_COMPRESSION })],
          ] as const;
          // A copy no smaller than the file (a tiny one) is left out: the server then sends the file.
          for (const [extension, copy] of copies)
            if (copy.length < content.length) await fs.writeFile(`${target}${extension}`, copy);
        }),
      );
    },
  };
}

/** Mantine's scroll area (under every table) as the only thing on a page that needs @floating-ui/react. */
const SCROLL_AREA = /@mantine[\\/]core[\\/]esm[\\/]components[\\/]ScrollArea[\\/]ScrollArea\.mjs$/;
const FLOATING_MERGE_REFS = 'import { useMergeRefs } from "@floating-ui/react";';

/**
 * Mantine's ScrollArea takes one small hook, useMergeRefs, from @floating-ui/react: a single module
 * that the bundler cannot cut, so every page with a table loaded the whole floating layer (15 kB gzip
 * of the network page's first script, issue 26) though nothing floats there until clicked. The same
 * hook from @mantine/hooks (variadic rather than an array) replaces it. If a Mantine upgrade changes
 * that import, the build says so and leaves the file as it is.
 */
function scrollAreaWithoutFloatingUi(): Plugin {
  return {
    name: 'warmpath:scroll-area-without-floating-ui',
    apply: 'build',
    transform(code, id) {
      if (!SCROLL_AREA.test(id)) return null;
      if (!code.includes(FLOATING_MERGE_REFS)) {
        this.warn(`${id} no longer imports useMergeRefs from @floating-ui/react: left as it is`);
        return null;
      }
      return code.replace(
        FLOATING_MERGE_REFS,
        'import { useMergedRef } from "@mantine/hooks";\nconst useMergeRefs = (refs) => useMergedRef(...refs);',
      );
    },
  };
}

// The root is this folder, so the build lands in apps/web/dist, where the server serves it from.
export default defineConfig({
  plugins: [react(), precompress(), scrollAreaWithoutFloatingUi()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'app', tags: ['$initial'], priority: 3 },
            { name: 'forms', test: /node_modules[\\/](react-hook-form|@hookform)[\\/]/, priority: 2 },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': backend,
      '/idp': backend,
    },
  },
});
