import { describe, expect, it } from 'vitest';
import { sourceFiles } from '../testing/sourceFiles.ts';
import listed from './mantineStyles.ts?raw';

/** Mantine's per-component style files (in the web app's node_modules, or the repository's if hoisted). */
const styleFiles = Object.keys(
  // exhaustive: a glob leaves node_modules out unless asked.
  import.meta.glob(
    ['../../node_modules/@mantine/core/styles/*.css', '../../../../node_modules/@mantine/core/styles/*.css'],
    {
      exhaustive: true,
    },
  ),
)
  .map((path) => /([^/]+)\.css$/.exec(path)?.[1] ?? '')
  .filter((name) => !name.endsWith('.layer'));

/** Every name the app's sources import from '@mantine/core'. */
const usedNames = new Set(
  Object.values(sourceFiles).flatMap((text) =>
    Array.from(text.matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*'@mantine\/core'/g), (match) =>
      (match[1] ?? '').split(',').map(
        (name) =>
          name
            .replace(/\btype\s+/, '')
            .split(' as ')[0]
            ?.trim() ?? '',
      ),
    ).flat(),
  ),
);
const imported = Array.from(listed.matchAll(/'@mantine\/core\/styles\/([^']+)\.css'/g), (match) => match[1] ?? '');

describe("the app's Mantine styles", () => {
  it('finds Mantine’s style files and the components the app uses', () => {
    expect(styleFiles).toContain('Button');
    expect(usedNames).toContain('Button');
  });

  it('imports the styles of every component the app uses, after the global ones', () => {
    const missing = [...usedNames].filter((name) => styleFiles.includes(name) && !imported.includes(name));
    expect(missing).toEqual([]);
    expect(imported.slice(0, 3)).toEqual(['baseline', 'default-css-variables', 'global']);
    // The files the others are built on (Mantine's list of shared styles).
    for (const shared of ['UnstyledButton', 'Input', 'InlineInput', 'Popover', 'CloseButton', 'Overlay', 'ModalBase'])
      expect(imported).toContain(shared);
  });
});
