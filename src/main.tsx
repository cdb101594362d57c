import './app/fonts.css';
import './app/mantine-styles';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/App';
import { type EmbeddedPage, PAGE_DATA_ID } from './app/embedded-page';
import { preloadPage } from './app/routes';
import { views } from './app/views';
import { pageBasket } from './features/basket/store';
import { reportRedrawn } from './ui/hydration';
import { PageData } from './ui/page-data';

const root = document.getElementById('root');
const embedded = document.getElementById(PAGE_DATA_ID)?.textContent;
if (!root || !embedded) throw new Error('the page has no #root or no embedded page data');
const first = JSON.parse(embedded) as EmbeddedPage;
pageBasket.seed(first.basket);

// The page's own code is on its way (the page's start script preloads it beside this one):
// waiting for it lets hydration find the page the server rendered, not the skeleton. Not a
// top-level await: the page's chunk imports from this one, which must have finished running.
void preloadPage(window.location.pathname)
  .catch(() => {})
  .then(() =>
    // As a transition, React hydrates in slices of a few milliseconds instead of one long task,
    // so a slow phone stays responsive while the page wakes up (Lighthouse's TBT).
    startTransition(() => {
      const app = (
        <StrictMode>
          <App
            page={new PageData(first.url, first.answers, first.refused, first.outcome)}
            cookieAccepted={first.cookieAccepted}
            basket={first.basket}
            timeZone={first.timeZone}
          />
        </StrictMode>
      );
      // A page the server could not render comes with an empty root: the browser draws it.
      if (root.hasChildNodes()) hydrateRoot(root, app, { onRecoverableError: reportRedrawn });
      else createRoot(root).render(app);
    }),
  );

// The speed this shopper sees, for the share of views that report it: loaded once the page is
// up, so that it never competes with the page's own code.
if (Math.random() < first.rumSample) {
  const startRum = () => {
    setTimeout(() => {
      import('./app/rum').then(({ startRum }) => startRum(views)).catch(() => {});
    });
  };
  if (document.readyState === 'complete') startRum();
  else addEventListener('load', startRum, { once: true });
}
