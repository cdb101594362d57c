import { createTheme, type MantineColorsTuple } from '@mantine/core';

// A raspberry primary colour whose filled shade (7) keeps white text above WCAG AA contrast.
// In the dark theme Mantine draws links and coloured text in shade 4: it is light enough to
// stay above AA (5.1:1) on the dark cards (dark-6), and shades 2 and 3 stay lighter still.
const berry: MantineColorsTuple = [
  '#fdeef3',
  '#f8d4e0',
  '#f4b3c9',
  '#f093b3',
  '#ec7ca0',
  '#df3c72',
  '#c92a62',
  '#ad1f54',
  '#911747',
  '#760f3a',
];

// "Roboto Fallback" (fonts.css) stands in for Roboto while it loads, at Roboto's size.
const FONT_FAMILY =
  'Roboto, "Roboto Fallback", system-ui, -apple-system, "Segoe UI", Arial, sans-serif';

export const theme = createTheme({
  primaryColor: 'berry',
  primaryShade: { light: 7, dark: 7 },
  colors: { berry },
  fontFamily: FONT_FAMILY,
  headings: { fontFamily: FONT_FAMILY },
  // Spec §9: xs 0, sm 600, md 960, lg 1280, xl 1920 (xxl 2560 is wider than any layout here).
  breakpoints: { xs: '0em', sm: '37.5em', md: '60em', lg: '80em', xl: '120em' },
  defaultRadius: 'md',
  cursorType: 'pointer',
  // The class Mantine's components carry for their keyboard focus ring: the shop draws that ring
  // itself (app/layout/Layout.module.css), in the colour its own controls use (ui/controls).
  focusClassName: 'shop-focus-ring',
});
