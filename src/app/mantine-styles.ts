// Mantine's styles, per component, instead of the 290 KB styles.css: only what the shop uses.
// Order matters (Mantine's CSS files list): the base and the shared building blocks come first,
// so that e.g. UnstyledButton's reset does not override Button's colours. A feature that uses a
// component not listed here imports its file in its own module; it then loads with that route.
// No default-css-variables.css (4 KB gzip): every theme variable is written as one style element
// (theme-variables.ts, in the head of every page the server sends).
import '@mantine/core/styles/baseline.css';
import '@mantine/core/styles/global.css';
// Building blocks other components are made of.
import '@mantine/core/styles/UnstyledButton.css';
import '@mantine/core/styles/VisuallyHidden.css';
import '@mantine/core/styles/Paper.css';
import '@mantine/core/styles/CloseButton.css';
import '@mantine/core/styles/Group.css';
import '@mantine/core/styles/Loader.css';
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/Flex.css';
import '@mantine/core/styles/ActionIcon.css';
// What the shell and most pages show.
import '@mantine/core/styles/Affix.css';
import '@mantine/core/styles/Badge.css';
import '@mantine/core/styles/Breadcrumbs.css';
import '@mantine/core/styles/Burger.css';
import '@mantine/core/styles/Card.css';
import '@mantine/core/styles/Container.css';
import '@mantine/core/styles/Image.css';
import '@mantine/core/styles/Skeleton.css';
import '@mantine/core/styles/Stack.css';
import '@mantine/core/styles/Text.css';
// After Text.css: an Anchor is a Text too, and its `underline` rules must win over Text's
// `text-decoration: none`.
import '@mantine/core/styles/Anchor.css';
import '@mantine/core/styles/Title.css';
