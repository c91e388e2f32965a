import { MantineProvider } from '@mantine/core';
import { configure, type RenderResult, render } from '@testing-library/react';
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

// Nor ResizeObserver, which Mantine's scroll areas watch their content with.
if (!window.ResizeObserver) {
  window.ResizeObserver = class {
    observe(): void {}
    unobserve(): void {}
    disconnect(): void {}
  };
}

// A whole app mounting in jsdom beside other test files can take over a second on a busy machine.
configure({ asyncUtilTimeout: 10_000 });

/** Renders inside Mantine, as the app does, with transitions and portals off so what opens is there at once. */
export function renderWithMantine(ui: ReactNode): RenderResult {
  return render(<MantineProvider env="test">{ui}</MantineProvider>);
}
