import { cleanup, screen, within } from '@testing-library/react';
import { SIGNAL_TEMPERATURE, SIGNAL_TYPES, type SignalType, type TSignal } from '@warmpath/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithMantine } from '../../../testing/render.tsx';
import { SignalChip, SignalLegend, TEMPERATURE_COLORS } from './SignalChips.tsx';

const signal = (type: SignalType): TSignal => ({ id: type, type, proximityScore: 50, metadata: {} });

describe('signal chips', () => {
  afterEach(cleanup);

  it('colour each temperature its own way, none of them the error red', () => {
    expect(new Set(Object.values(TEMPERATURE_COLORS)).size).toBe(3);
    expect(Object.values(TEMPERATURE_COLORS)).not.toContain('red');
  });

  it('mark every signal with its temperature, in the registry’s colour and by name', () => {
    renderWithMantine(
      <div>
        {SIGNAL_TYPES.map((type) => (
          <SignalChip key={type} signal={signal(type)} />
        ))}
      </div>,
    );
    const marks = screen.getAllByRole('img').map((mark) => mark.getAttribute('aria-label'));
    expect(marks).toEqual(
      SIGNAL_TYPES.map((type) => ({ warm: 'Warm', medium: 'Medium', cold: 'Cold' })[SIGNAL_TEMPERATURE[type]]),
    );
    const pricing = screen.getByText('Visited pricing page').closest('.mantine-Badge-root');
    expect(pricing?.getAttribute('style')).toContain('--mantine-color-orange');
    const connected = screen.getByText('Connected with a colleague').closest('.mantine-Badge-root');
    expect(connected?.getAttribute('style')).toContain('--mantine-color-blue');
  });

  it('explain the colours in a legend', () => {
    renderWithMantine(<SignalLegend />);
    const legend = within(screen.getByRole('group', { name: 'Signal temperatures' }));
    expect(['Warm', 'Medium', 'Cold'].map((name) => legend.getByText(name).textContent)).toEqual([
      'Warm',
      'Medium',
      'Cold',
    ]);
    // The legend's marks are decorative beside their words.
    expect(legend.queryAllByRole('img')).toHaveLength(0);
  });
});
