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

/**
 * Imports of Mantine's that pull a whole library into every page for a small part of it: a single
 * module the bundler cannot cut. Each is replaced by the same thing from a lighter place (issue 26).
 * If a Mantine upgrade changes one, the build says so and leaves the file as it is.
 */
const MANTINE_IMPORTS: { file: RegExp; from: string; to: string }[] = [
  // The scroll area under every table takes one hook, useMergeRefs, from @floating-ui/react: the
  // whole floating layer (15 kB gzip) was in /network's first script though nothing floats until
  // clicked. @mantine/hooks has the same hook (variadic rather than an array).
  {
    file: /[\\/]components[\\/]ScrollArea[\\/]ScrollArea\.mjs$/,
    from: 'import { useMergeRefs } from "@floating-ui/react";',
    to: 'import { useMergedRef } from "@mantine/hooks";\nconst useMergeRefs = (refs) => useMergedRef(...refs);',
  },
  // The app shell's header, footer and aside read one class name from react-remove-scroll, which
  // brought the whole scroll lock of modals (4 kB gzip) into the signed-in frame; the constant comes
  // from its own entry point.
  ...['AppShellHeader', 'AppShellFooter', 'AppShellAside'].map((name) => ({
    file: new RegExp(`[\\\\/]components[\\\\/]AppShell[\\\\/]${name}[\\\\/]${name}\\.mjs$`),
    from: 'import { RemoveScroll } from "react-remove-scroll";',
    to: 'import { zeroRightClassName } from "react-remove-scroll-bar/constants";\nconst RemoveScroll = { classNames: { zeroRight: zeroRightClassName } };',
  })),
];

function lighterMantineImports(): Plugin {
  return {
    name: 'warmpath:lighter-mantine-imports',
    apply: 'build',
    transform(code, id) {
      if (!id.includes('@mantine')) return null;
      const patch = MANTINE_IMPORTS.find(({ file }) => file.test(id));
      if (!patch) return null;
      if (!code.includes(patch.from)) {
        this.warn(`${id} no longer has ${patch.from}: left as it is`);
        return null;
      }
      return code.replace(patch.from, patch.to);
    },
  };
}

// The root is this folder, so the build lands in apps/web/dist, where the server serves it from.
export default defineConfig({
  plugins: [react(), precompress(), lighterMantineImports()],
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
