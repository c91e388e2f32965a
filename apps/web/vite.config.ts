import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
// By path: Vite loads its config with Node, which would not read the shared package's TypeScript
// through its name (a link under node_modules, left to Node), but bundles a file it is given by path.
import { API_CONTRACTS, outlineOf, type RouteOutline } from '../../packages/shared/src/contracts/index.ts';
import { firstScreenChunks } from './firstScreenChunks.ts';

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

/**
 * The production build calls the API by the contracts' outlines (path, method, how it answers) rather
 * than the contracts themselves: these build every request and answer schema when loaded, which put
 * zod (26 kB gzip) and the shared schemas in every page's first script, for the answer checks only
 * development makes (lib/api.ts). Each contracts/<domain>.ts is replaced by its `<domain>Api`'s
 * outline, computed here from the same contracts; a file that exports anything else stops the build,
 * as the outline would leave it out. Development and the tests keep the contracts as they are.
 */
function contractOutlines(): Plugin {
  const outlines = new Map<string, Record<string, RouteOutline>>();
  for (const contract of API_CONTRACTS) {
    const [domain] = contract.tags;
    outlines.set(domain, { ...outlines.get(domain), [contract.operationId]: outlineOf(contract) });
  }
  const contractFile = /[\\/]packages[\\/]shared[\\/]src[\\/]contracts[\\/](\w+)\.ts$/;
  return {
    name: 'warmpath:contract-outlines',
    apply: 'build',
    enforce: 'pre',
    async load(id) {
      const domain = contractFile.exec(id)?.[1];
      const routes = domain === undefined ? undefined : outlines.get(domain);
      if (domain === undefined || routes === undefined) return null;
      const source = await fs.readFile(id, 'utf8');
      const exported = [...source.matchAll(/^export\s+(?:const|function|class|let|type|\{)\s*(\w*)/gm)].map(
        (match) => match[1],
      );
      if (exported.length !== 1 || exported[0] !== `${domain}Api`)
        this.error(`${id} must export its ${domain}Api only (it exports ${exported.join(', ')})`);
      return `export const ${domain}Api = ${JSON.stringify(routes)};`;
    },
  };
}

const firstScreens = firstScreenChunks();

// The root is this folder, so the build lands in apps/web/dist, where the server serves it from.
export default defineConfig({
  plugins: [contractOutlines(), react(), precompress(), lighterMantineImports(), ...firstScreens.plugins],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'app', tags: ['$initial'], priority: firstScreens.count + 2 },
            {
              name: 'forms',
              test: /node_modules[\\/](react-hook-form|@hookform)[\\/]/,
              priority: firstScreens.count + 1,
            },
            ...firstScreens.groups,
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
