import { describe, expect, it } from 'vitest';
import { sourceFiles } from './testing/sourceFiles.ts';

// app/ is the shell only the entry point and the router's tests start from: the router, the providers,
// the layout and the guards. What features share with it lives below them (lib/, components/), so a
// feature, or a piece it uses, never imports from app/.

/** Static imports and re-exports, side-effect imports, dynamic imports and vi.mock's module paths. */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*|\bvi\.mock\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

/** `specifier` resolved against the folder of `from`, as a path from src/ ('..' past src/ kept). */
function resolve(from: string, specifier: string) {
  const parts = from.split('/').slice(0, -1);
  for (const part of specifier.split('/')) {
    if (part === '..' && parts.length > 0 && parts.at(-1) !== '..') parts.pop();
    else if (part !== '.') parts.push(part);
  }
  return parts.join('/');
}

/** Each relative import in src/ as [importing file, imported path]. */
const imports = Object.entries(sourceFiles).flatMap(([file, text]) =>
  Array.from(text.matchAll(SPECIFIER), (match) => [file, resolve(file, match[1] ?? '')] as const),
);

describe('the web app’s layers', () => {
  it('reads every source file and its imports', () => {
    expect(Object.keys(sourceFiles)).toContain('features/network/api.ts');
    expect(imports).toContainEqual(['features/network/pages/NetworkPage.tsx', 'lib/useSession.ts']);
  });

  it('keeps features, lib and components from importing app/', () => {
    const upward = imports.filter(
      ([file, imported]) => /^(features|lib|components)\//.test(file) && imported.startsWith('app/'),
    );
    expect(upward.map(([file, imported]) => `${file} -> ${imported}`)).toEqual([]);
  });

  it('keeps every screen and the signed-in frame out of the first script: the router imports them only when visited', () => {
    // A static import from the first script's modules puts a screen's code (and its libraries) into what
    // every visitor downloads before the first page shows (issue 26).
    const STATIC = /\b(?:from|import)\s*['"](\.{1,2}\/[^'"]+)['"]/g;
    const firstScript = [
      'main.tsx',
      'app/AppProviders.tsx',
      'app/router.tsx',
      'app/RootRoute.tsx',
      'app/GuardedOutlet.tsx',
      'app/screens.ts',
      'app/firstScreen.ts',
    ];
    const eager = firstScript.flatMap((file) =>
      Array.from(sourceFiles[file]?.matchAll(STATIC) ?? [], (match) => resolve(file, match[1] ?? '')),
    );
    expect(eager.filter((imported) => /^features\/[^/]+\/pages\/|^app\/AppLayout\.tsx$/.test(imported))).toEqual([]);
    const lazy = imports.filter(([file, imported]) => file === 'app/screens.ts' && imported.includes('/pages/'));
    expect(lazy.length).toBeGreaterThan(20);
  });
});
