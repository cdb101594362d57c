import { useNotifications } from '@mantine/notifications';
import { lazy, Suspense, useState } from 'react';

// The notifications container (with react-transition-group and its styles) is only needed once
// something is shown, which most visits never do. `notifications.show` works from the start: it
// fills Mantine's store, and the container shows what is in the store once it has loaded.
const NotificationsHost = lazy(() => import('./NotificationsHost'));

export function NotificationsOnDemand() {
  const { notifications, queue } = useNotifications();
  const [needed, setNeeded] = useState(false);
  // Once loaded it stays, so the closing animation of the last notification still plays.
  if (!needed && notifications.length + queue.length > 0) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <NotificationsHost />
    </Suspense>
  );
}
