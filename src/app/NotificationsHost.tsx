import '@mantine/core/styles/Notification.css';
import '@mantine/notifications/styles.css';
import { Notifications } from '@mantine/notifications';

/** Loaded by NotificationsOnDemand when the first notification is shown. */
export default function NotificationsHost() {
  return <Notifications position="top-center" />;
}
