import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = import.meta.dirname;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx|mts|js|mjs)$/.test(entry.name) ? [full] : [];
  });
}

/** Every module specifier of a file: static imports and re-exports, dynamic imports, require. */
function specifiers(code: string): string[] {
  const found: string[] = [];
  const patterns = [
    /\bfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\b(?:import|require)\s*\(\s*['"]([^'"]+)['"]/g,
  ];
  for (const pattern of patterns) for (const match of code.matchAll(pattern)) if (match[1]) found.push(match[1]);
  return found;
}

describe('the product and the sandboxes', () => {
  it('never imports a sandbox: it reaches them through their URLs only', () => {
    // This file's own examples below are the one exception.
    const files = sourceFiles(SRC).filter((file) => file !== import.meta.filename);
    const offending = files.flatMap((file) =>
      specifiers(fs.readFileSync(file, 'utf8'))
        .filter((specifier) => /(^|\/)sandboxes\/|^@warmpath\/sandbox-/.test(specifier))
        .map((specifier) => `${path.relative(SRC, file)}: ${specifier}`),
    );
    expect(offending).toEqual([]);
  });

  it('finds such an import when there is one', () => {
    expect(specifiers("import { listenGoogleSandbox } from '@warmpath/sandbox-google';")).toEqual([
      '@warmpath/sandbox-google',
    ]);
    expect(specifiers("const m = await import('../../sandboxes/google/src/index.ts');")).toEqual([
      '../../sandboxes/google/src/index.ts',
    ]);
  });
});
