import { useLayoutEffect, useRef } from 'react';
import { useLocation } from 'wouter';

/**
 * Spec §2: scroll goes back to the top on each navigation. Not when the app first takes over the
 * server's page: the visitor may already have scrolled it, and the browser restores a reload's
 * position itself.
 */
export function ScrollReset() {
  const [location] = useLocation();
  const first = useRef(location);
  useLayoutEffect(() => {
    if (location === first.current) return;
    first.current = '';
    window.scrollTo(0, 0);
  }, [location]);
  return null;
}
