import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import type { TProximityExplanation } from '@warmpath/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { proximityExplanation } from '../../../testing/networkFixtures.ts';
import { renderWithMantine } from '../../../testing/render.tsx';
import { ProximityExplanationView } from './ProximityPopover.tsx';

const [jane] = proximityExplanation.paths;
if (!jane) throw new Error('fixture changed');
/** Six colleagues, each less close than the one before. */
const many: TProximityExplanation = {
  ...proximityExplanation,
  paths: [82, 70, 60, 50, 40, 30].map((link, index) => ({
    ...jane,
    connectorId: `00000000-0000-4000-8000-0000000001${index}0`,
    connectorName: `Colleague ${index + 1}`,
    link,
    proximity: link,
    channels: [{ source: 'GOOGLE_MEETING', alone: link, added: link, detail: `${index + 1} meetings together` }],
  })),
};

describe('ProximityExplanationView', () => {
  afterEach(cleanup);

  it('shows each path’s channels adding up to its link, and an ally’s link times the trust', () => {
    renderWithMantine(<ProximityExplanationView explanation={proximityExplanation} prospectName="John Smith" />);
    for (const path of proximityExplanation.paths) {
      const section = within(screen.getByRole('region', { name: path.connectorName }));
      const adds = section
        .getAllByRole('row')
        .slice(1)
        .map((row) => Number(row.querySelectorAll('td')[1]?.textContent));
      expect(adds.reduce((sum, points) => sum + points, 0)).toBe(path.link);
      expect(
        section.getByText(
          path.trust === null ? `Link ${path.link}` : `Link ${path.link} × trust in the ally 50% = ${path.proximity}`,
        ),
      ).toBeDefined();
    }
  });

  it('shows the three closest paths, the others on demand', () => {
    renderWithMantine(<ProximityExplanationView explanation={many} prospectName="John Smith" />);
    expect(screen.getByText('The closest of 6 paths', { exact: false })).toBeDefined();
    expect(screen.getAllByRole('region').map((region) => region.getAttribute('aria-label'))).toEqual([
      'Colleague 1',
      'Colleague 2',
      'Colleague 3',
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Show all 6 paths' }));
    expect(screen.getAllByRole('region')).toHaveLength(6);
    expect(screen.queryByRole('button', { name: /Show all/ })).toBeNull();
  });

  it('draws the closest path, its name saying the path with the link’s strength and channels', () => {
    renderWithMantine(<ProximityExplanationView explanation={proximityExplanation} prospectName="John Smith" />);
    expect(
      screen.getByRole('img', {
        name: 'You → Jane Doe (colleague, High 82: Google meeting, LinkedIn connection) → John Smith',
      }),
    ).toBeDefined();
  });

  it('draws no channel of a strength-only colleague, and the viewer’s own path from them', () => {
    const strengthOnly: TProximityExplanation = { ...proximityExplanation, paths: [{ ...jane, channels: [] }] };
    renderWithMantine(<ProximityExplanationView explanation={strengthOnly} prospectName="John Smith" />);
    const picture = screen.getByRole('img', { name: 'You → Jane Doe (colleague, High 82) → John Smith' });
    expect(picture.textContent).not.toMatch(/Google|LinkedIn/);
    cleanup();
    const mine: TProximityExplanation = { ...proximityExplanation, paths: [{ ...jane, isCurrentUser: true }] };
    renderWithMantine(<ProximityExplanationView explanation={mine} prospectName="John Smith" />);
    expect(
      screen.getByRole('img', {
        name: 'You → John Smith (High 82: Google meeting, LinkedIn connection)',
      }),
    ).toBeDefined();
  });

  it('says so when nobody knows the prospect', () => {
    renderWithMantine(
      <ProximityExplanationView explanation={{ ...proximityExplanation, paths: [] }} prospectName="John Smith" />,
    );
    expect(screen.getByText('Nobody in your network knows this person yet.')).toBeDefined();
  });
});
