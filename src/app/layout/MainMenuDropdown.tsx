import '@mantine/core/styles/Popover.css';
import '@mantine/core/styles/Menu.css';
import { Badge, Menu } from '@mantine/core';
import { IconListDetails, IconLogout, IconShoppingCart } from '@tabler/icons-react';
import { type ReactElement, useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { Link } from 'wouter';
import type { User } from '../../api/types';
import { lineCount, useBasket } from '../../features/basket/store';
import { logout, session } from '../../features/session/store';
import { MENU_CLOSE_DELAY, MENU_OPEN_DELAY } from './MainMenu';

/** Who is logged in, as the shop greets them: the full name, or the login when there is none. */
function displayName(user: Pick<User, 'username' | 'first_name' | 'last_name'>): string {
  return [user.first_name, user.last_name].filter(Boolean).join(' ') || user.username;
}

interface MainMenuDropdownProps {
  /** The menu button as MainMenu drew it before this module loaded. */
  target: ReactElement;
  opened: boolean;
  onChange: (opened: boolean) => void;
  /** Called once mounted: from now on Mantine handles the hover and click delays. */
  onReady: () => void;
}

/** The header menu with its dropdown; loaded by MainMenu on first interest. */
export default function MainMenuDropdown({
  target,
  opened,
  onChange,
  onReady,
}: MainMenuDropdownProps) {
  const { lines } = useBasket();
  // Logged in means a stored token: `user` may be missing when user/me failed for a reason other
  // than 401, and the shopper must still be able to log out.
  const { token, user } = useSnapshot(session);
  const count = lineCount(lines);

  useEffect(onReady, [onReady]);

  return (
    <Menu
      opened={opened}
      onChange={onChange}
      trigger="click-hover"
      openDelay={MENU_OPEN_DELAY}
      closeDelay={MENU_CLOSE_DELAY}
      position="bottom-end"
      width={220}
      shadow="md"
    >
      <Menu.Target>{target}</Menu.Target>
      <Menu.Dropdown>
        {token && <Menu.Label>{user ? displayName(user) : 'Вы вошли'}</Menu.Label>}
        {count > 0 && (
          <Menu.Item
            component={Link}
            href="/order"
            leftSection={<IconShoppingCart size={18} aria-hidden />}
            rightSection={
              <Badge size="sm" circle aria-label={`товаров: ${count}`}>
                {count}
              </Badge>
            }
          >
            Корзина
          </Menu.Item>
        )}
        <Menu.Item
          component={Link}
          href="/order_status"
          leftSection={<IconListDetails size={18} aria-hidden />}
        >
          Заказы
        </Menu.Item>
        {token && (
          <>
            <Menu.Divider />
            <Menu.Item leftSection={<IconLogout size={18} aria-hidden />} onClick={logout}>
              Выйти
            </Menu.Item>
          </>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}
