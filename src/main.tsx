import './app/fonts.css';
import './app/mantine-styles';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { preloadPage } from './app/routes';
import { startApp } from './app/startup';

startApp();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
// The first page's code is already on its way (index.html preloads it with the entry): waiting
// for it lets the first render show the page itself rather than the skeleton. Not a top-level
// await: the page's chunk imports from this one, which must have finished running first.
void preloadPage(window.location.pathname)
  .catch(() => {})
  .then(() =>
    // As a transition, React renders the first screen in slices of a few milliseconds instead of
    // one long task, so a slow phone stays responsive while the page builds (Lighthouse's TBT).
    startTransition(() =>
      createRoot(root).render(
        <StrictMode>
          <App />
        </StrictMode>,
      ),
    ),
  );
