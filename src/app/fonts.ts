// Roboto, self-hosted, Cyrillic and Latin subsets only; @fontsource declares font-display: swap.
// Weights: 400 text, 500 (fw={500}) names, 700 headings and Mantine's 600 (buttons, labels).
import '@fontsource/roboto/cyrillic-400.css';
import '@fontsource/roboto/latin-400.css';
import '@fontsource/roboto/cyrillic-500.css';
import '@fontsource/roboto/latin-500.css';
import '@fontsource/roboto/cyrillic-700.css';
import '@fontsource/roboto/latin-700.css';
import './fonts.css';
