import { type CSSVariablesResolver, createTheme } from '@mantine/core';

// Mantine's default shades for buttons, dimmed and error text fall below WCAG AA contrast on white.
export const theme = createTheme({ primaryShade: 8 });

export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
  },
  dark: {},
});
