import { createTheme, darken, DEFAULT_THEME, luminance, type CSSVariablesResolver } from '@mantine/core';

// Shade 8 keeps white text on the primary colour above 4.5:1 contrast.
export const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: { light: 8, dark: 8 },
  defaultRadius: 'md',
  // A badge is one or two words: it takes the room they need and never ends in "…" (a squeezed table cell cut "ASSIGN" to "ASSI…").
  components: {
    Badge: { styles: { root: { minWidth: 'max-content', flexShrink: 0 } } },
    // A closed picker's list is not in the page: kept there (the library's default), every Select
    // placed its hidden list as the screen appeared, each forcing the whole page's styles to be
    // worked out in the middle of drawing it, and followed the page's scrolling from then on.
    Combobox: { defaultProps: { keepMounted: false } },
    // A wide table scrolls sideways with the browser's own scrolling: the library's drawn scrollbars
    // measured the page each time it changed, each time working out the layout of the whole page.
    TableScrollContainer: { defaultProps: { type: 'native' } },
  },
});

const AA = 4.5;
const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
};

/** The lightest colour from shade `from` on (darkened past shade 9 if need be) that reads at 4.5:1 on `bg`. */
function readable(shades: readonly string[], from: number, bg: string): string {
  for (let i = from; i < shades.length; i++) if (contrast(shades[i], bg) >= AA) return shades[i];
  for (let k = 0.05; k < 1; k += 0.05) {
    const c = darken(shades[9], k);
    if (contrast(c, bg) >= AA) return c;
  }
  return '#000';
}

/** The darkest shade from `from` down (lighter) that reads at 4.5:1 on a dark `bg` (an input on a dialog is dark.5 at the lightest). */
function readableOnDark(shades: readonly string[], from: number, bg: string): string {
  for (let i = from; i >= 0; i--) if (contrast(shades[i], bg) >= AA) return shades[i];
  return '#fff';
}

/**
 * Mantine's defaults put some colours below WCAG AA: dimmed text (gray.6 on white, dark.2 on
 * dark.7), a field's error text (red.6 on either), white on filled orange/green/teal/cyan/lime/yellow, and the light variant's shade-9 text
 * on shade 1 for the same colours. These variables make each of them reach 4.5:1.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => {
  const red = DEFAULT_THEME.colors.red;
  const light: Record<string, string> = { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)', '--mantine-color-error': readable(red, 6, '#ffffff') };
  const dark: Record<string, string> = {
    '--mantine-color-dimmed': 'var(--mantine-color-dark-1)',
    '--mantine-color-error': readableOnDark(red, 6, DEFAULT_THEME.colors.dark[5]),
  };
  for (const [name, shades] of Object.entries(DEFAULT_THEME.colors)) {
    const filled = readable(shades, 8, '#ffffff');
    if (filled !== shades[8]) {
      light[`--mantine-color-${name}-filled`] = filled;
      light[`--mantine-color-${name}-outline`] = filled;
      dark[`--mantine-color-${name}-filled`] = filled;
    }
    const lightText = readable(shades, 9, shades[1]);
    if (lightText !== shades[9]) light[`--mantine-color-${name}-light-color`] = lightText;
  }
  return { variables: {}, light, dark };
};
