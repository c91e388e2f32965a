import { describe, expect, it } from 'vitest';
import { PATHS } from '../lib/paths.ts';
import { firstScreensOf } from './screens.ts';

describe('the first page’s screens', () => {
  it('fetches the frame and the page for the pages people open the app on, with or without a trailing slash', () => {
    expect(firstScreensOf(PATHS.network)).toEqual(['appLayout', 'network']);
    expect(firstScreensOf(`${PATHS.network}/`)).toEqual(['appLayout', 'network']);
    expect(firstScreensOf(PATHS.actions)).toEqual(['appLayout', 'actionsLayout', 'recommendedActions']);
    expect(firstScreensOf(PATHS.recommendedActions)).toEqual(['appLayout', 'actionsLayout', 'recommendedActions']);
    expect(firstScreensOf(PATHS.signUp.connect)).toEqual(['connect']);
  });

  it('leaves every other page to the router', () => {
    for (const path of [PATHS.root, PATHS.admin.users, PATHS.workflows, `${PATHS.network}/elsewhere`, '/networking']) {
      expect(firstScreensOf(path), path).toEqual([]);
    }
  });
});
