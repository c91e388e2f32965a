import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { john } from '../../../testing/networkFixtures.ts';
import { renderWithMantine } from '../../../testing/render.tsx';
import { AlliesCell } from './AlliesCell.tsx';

describe('AlliesCell', () => {
  afterEach(cleanup);

  it('shows the user among those who know the prospect, without offering to ask themself', () => {
    const [first, ...others] = john.connectors;
    if (!first) throw new Error('fixture changed');
    const row = { ...john, connectors: [{ ...first, isCurrentUser: true }, ...others] };
    renderWithMantine(<AlliesCell row={row} onAsk={vi.fn()} />);
    expect(screen.getByRole('img', { name: `You know ${john.name}` })).toBeTruthy();
    expect(screen.queryByRole('button', { name: `Ask ${first.fullName} for an intro to ${john.name}` })).toBeNull();
  });
});
