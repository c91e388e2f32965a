import { MantineProvider } from '@mantine/core';
import { type RenderResult, render } from '@testing-library/react';
import type { ReactNode } from 'react';

// jsdom has no matchMedia; Mantine asks it for the colour scheme and breakpoints.
if (!window.matchMedia) {
  window.matchMedia = (query: string): MediaQueryList => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  });
}

/** Renders inside Mantine, as the app does. */
export function renderWithMantine(ui: ReactNode): RenderResult {
  return render(<MantineProvider>{ui}</MantineProvider>);
}
