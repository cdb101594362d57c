import { useLayoutEffect } from 'react';
import { useLocation } from 'wouter';

/** Spec §2: scroll goes back to the top on each navigation. */
export function ScrollReset() {
  const [location] = useLocation();
  useLayoutEffect(() => {
    window.scrollTo(0, 0);
  }, [location]);
  return null;
}
