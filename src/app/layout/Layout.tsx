import { Container } from '@mantine/core';
import type { ReactNode } from 'react';
import { CookieNotice } from './CookieNotice';
import { Footer } from './Footer';
import { Header } from './Header';
import classes from './Layout.module.css';
import { PostedNotice } from './PostedNotice';
import { PriceButton } from './PriceButton';
import { TabsStrip } from './TabsStrip';

export function Layout({
  cookieAccepted,
  children,
}: {
  cookieAccepted?: boolean;
  children: ReactNode;
}) {
  return (
    <div className={classes.page}>
      <Header />
      <TabsStrip />
      <main className={classes.main}>
        <Container size="lg">
          <PostedNotice />
          {children}
        </Container>
      </main>
      <Footer />
      <div className={classes.dock}>
        <PriceButton />
        <CookieNotice initiallyAccepted={cookieAccepted} />
      </div>
    </div>
  );
}
