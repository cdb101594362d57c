import { MantineProvider } from '@mantine/core';
import { useEffect, useState } from 'react';
import { Router } from 'wouter';
import {
  type BasketStart,
  BasketSeedContext,
  seededBasket,
  useBasketStore,
} from '../features/basket/store';
import type { PageData } from '../ui/page-data';
import { TimeZoneContext } from '../ui/time-zone';
import { Layout } from './layout/Layout';
import { NotificationsOnDemand } from './NotificationsOnDemand';
import { PageDataProvider, startNavigation } from './page-loading';
import { Routes } from './routes';
import { ScrollReset } from './ScrollReset';
import { startApp } from './startup';
import { theme } from './theme';
import { themeStorage } from './theme-storage';

// Spec §3: the theme lives in localStorage under `theme`; light is the default.
export const colorSchemeManager = themeStorage();

export interface AppProps {
  /** The data of the first page: the server's answers, embedded in the HTML for hydration. */
  page: PageData;
  /** Whether the visitor accepted cookies (the `cookieAccepted` cookie of the request). */
  cookieAccepted: boolean;
  /** The visitor's basket as the server rendered it, or why it did not have it. */
  basket: BasketStart;
  /** The shop's time zone for order dates (SHOP_TIME_ZONE), the same on both sides. */
  timeZone: string;
  /** On the server: the request's path and query (its status is decided before: pageStatus). */
  ssr?: { path: string; search: string };
}

export function App({ page, cookieAccepted, basket, timeZone, ssr }: AppProps) {
  // The basket and the user are fetched (again) once the server's HTML is hydrated, so that the
  // first render in the browser is the server's. Never on the server.
  const store = useBasketStore();
  useEffect(() => startApp(store), [store]);
  const [seed] = useState(() => seededBasket(basket));
  return (
    <Router
      ssrPath={ssr?.path}
      ssrSearch={ssr?.search}
      aroundNav={ssr ? undefined : startNavigation}
    >
      <MantineProvider
        theme={theme}
        defaultColorScheme="light"
        colorSchemeManager={colorSchemeManager}
        // The theme's variables come with the page's head from the server (theme-variables.ts).
        withCssVariables={false}
      >
        <PageDataProvider first={page}>
          <BasketSeedContext value={seed}>
            <TimeZoneContext value={timeZone}>
              <NotificationsOnDemand />
              <ScrollReset />
              <Layout cookieAccepted={cookieAccepted}>
                <Routes />
              </Layout>
            </TimeZoneContext>
          </BasketSeedContext>
        </PageDataProvider>
      </MantineProvider>
    </Router>
  );
}
