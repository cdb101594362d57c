import './app/fonts';
import './app/mantine-styles';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { configureApi } from './api/http';
import { App } from './app/App';
import { loadBasket } from './features/basket/store';
import { handleUnauthorized, loadUser } from './features/session/store';

configureApi({ onUnauthorized: handleUnauthorized });

// Start-up loads (spec §2, §7): the basket list with its total, and the user when logged in.
void loadBasket();
void loadUser();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
