import { PAGINATION } from '@warmpath/shared';
import { describe, expect, it } from 'vitest';
import { pageWindow } from './pageWindow.ts';

const WINDOW = PAGINATION.pageWindow;

describe('pageWindow', () => {
  it('centres five pages on the current one', () => {
    expect(pageWindow(6, 20, WINDOW)).toEqual([4, 5, 6, 7, 8]);
  });

  it('stays within the first and last pages', () => {
    expect(pageWindow(1, 20, WINDOW)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(2, 20, WINDOW)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(19, 20, WINDOW)).toEqual([16, 17, 18, 19, 20]);
    expect(pageWindow(20, 20, WINDOW)).toEqual([16, 17, 18, 19, 20]);
  });

  it('shows every page when there are fewer than five, and page 1 when there are none', () => {
    expect(pageWindow(2, 3, WINDOW)).toEqual([1, 2, 3]);
    expect(pageWindow(1, 0, WINDOW)).toEqual([1]);
  });

  it('clamps a current page outside the range', () => {
    expect(pageWindow(50, 7, WINDOW)).toEqual([3, 4, 5, 6, 7]);
  });
});
