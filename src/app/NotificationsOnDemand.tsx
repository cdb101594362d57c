import { lazy, Suspense, useSyncExternalStore } from 'react';
import { noticesLoaded, onNoticesLoaded } from '../ui/notify';

// The notifications container (with react-transition-group and its styles) is only needed once
// something is shown, which most visits never do: it loads with the first notice.
const NotificationsHost = lazy(() => import('./NotificationsHost'));

export function NotificationsOnDemand() {
  // No notice is ever shown in the server's HTML.
  const needed = useSyncExternalStore(onNoticesLoaded, noticesLoaded, () => false);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <NotificationsHost />
    </Suspense>
  );
}
