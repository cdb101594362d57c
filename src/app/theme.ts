import { createTheme, type MantineColorsTuple } from '@mantine/core';

// A raspberry primary colour whose filled shade (7) keeps white text above WCAG AA contrast.
const berry: MantineColorsTuple = [
  '#fdeef3',
  '#f8d4e0',
  '#f2a9c1',
  '#ec7ca0',
  '#e55584',
  '#df3c72',
  '#c92a62',
  '#ad1f54',
  '#911747',
  '#760f3a',
];

export const theme = createTheme({
  primaryColor: 'berry',
  primaryShade: { light: 7, dark: 7 },
  colors: { berry },
  fontFamily: 'Roboto, system-ui, -apple-system, "Segoe UI", Arial, sans-serif',
  headings: { fontFamily: 'Roboto, system-ui, -apple-system, "Segoe UI", Arial, sans-serif' },
  // Spec §9: xs 0, sm 600, md 960, lg 1280, xl 1920 (xxl 2560 is wider than any layout here).
  breakpoints: { xs: '0em', sm: '37.5em', md: '60em', lg: '80em', xl: '120em' },
  defaultRadius: 'md',
  cursorType: 'pointer',
});
