import { IconLogout } from '@tabler/icons-react';
import { useSnapshot } from 'valtio';
import type { User } from '../../api/types';
import { logout, session } from '../../features/session/store';
import classes from './MainMenu.module.css';

/** Who is logged in, as the shop greets them: the full name, or the login when there is none. */
function displayName(user: Pick<User, 'username' | 'first_name' | 'last_name'>): string {
  return [user.first_name, user.last_name].filter(Boolean).join(' ') || user.username;
}

/**
 * The menu's lines for a logged-in shopper: their name at the top, `Выйти` at the bottom. Only
 * the browser knows the stored token, so they come after hydration, with their own small chunk.
 */
export default function SessionMenuItems({ part }: { part: 'name' | 'logout' }) {
  // `user` may be missing when user/me failed for a reason other than 401: the shopper is still
  // logged in and must be able to log out.
  const { user } = useSnapshot(session);
  if (part === 'name') {
    return <div className={classes.label}>{user ? displayName(user) : 'Вы вошли'}</div>;
  }
  return (
    <>
      <hr className={classes.divider} />
      <button type="button" role="menuitem" className={classes.item} onClick={logout}>
        <IconLogout size={18} aria-hidden />
        Выйти
      </button>
    </>
  );
}
