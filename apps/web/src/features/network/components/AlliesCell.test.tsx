import { cleanup, fireEvent, screen } from '@testing-library/react';
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

  it('tells who an avatar is on hover or keyboard focus, and hides it on Escape or when left', async () => {
    const [jane] = john.connectors;
    if (!jane) throw new Error('fixture changed');
    renderWithMantine(<AlliesCell row={john} onAsk={vi.fn()} />);
    const avatar = screen.getByRole('button', { name: `Ask ${jane.fullName} for an intro to ${john.name}` });
    expect(screen.queryByRole('tooltip')).toBeNull();

    fireEvent.mouseEnter(avatar);
    expect((await screen.findByRole('tooltip')).textContent).toContain(jane.jobTitle);
    fireEvent.mouseLeave(avatar);
    await vi.waitFor(() => expect(screen.queryByRole('tooltip')).toBeNull());

    avatar.focus();
    expect((await screen.findByRole('tooltip')).textContent).toContain(jane.fullName);
    fireEvent.keyDown(avatar, { key: 'Escape' });
    await vi.waitFor(() => expect(screen.queryByRole('tooltip')).toBeNull());
    // The focus stays where it was: the tooltip never re-created the button.
    expect(document.activeElement).toBe(avatar);
  });
});
