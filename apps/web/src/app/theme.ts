import { type CSSVariablesResolver, createTheme } from '@mantine/core';

// Mantine's default shades for buttons, dimmed and error text fall below WCAG AA contrast on white.
export const theme = createTheme({ primaryShade: 8 });

const LIGHT_VARIANT_TEXT = Object.fromEntries(
  Object.entries({
    green: '#1e5e2b',
    yellow: '#6b4200',
    orange: '#7f3700',
    red: '#9b1010',
    blue: '#134a87',
    teal: '#0a5a50',
    gray: '#3d434a',
  }).map(([color, text]) => [`--mantine-color-${color}-light-color`, text]),
);

export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    // Placeholders (a file input's 'Choose a file' is one) at 4.9:1 rather than gray-5's 2.1:1.
    '--mantine-color-placeholder': '#6b7177',
    // Light badges (engagement, proximity bands, signals) put shade-9 text on a pale tint: 3.8:1 at
    // best. These darker texts reach 4.5:1 on their tints (checked by the axe test of the network page).
    ...LIGHT_VARIANT_TEXT,
  },
  dark: {},
});
