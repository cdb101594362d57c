import { ActionIcon, Badge, Menu } from '@mantine/core';
import { IconListDetails, IconLogout, IconMenu2, IconShoppingCart } from '@tabler/icons-react';
import { useSnapshot } from 'valtio';
import { Link } from 'wouter';
import type { User } from '../../api/types';
import { basket, lineCount } from '../../features/basket/store';
import { logout, session } from '../../features/session/store';

// Spec §2: opens after 300 ms and closes after 250 ms; `Корзина` only while the cart has a line.
export const MENU_OPEN_DELAY = 300;
export const MENU_CLOSE_DELAY = 250;

/** Who is logged in, as the shop greets them: the full name, or the login when there is none. */
function displayName(user: Pick<User, 'username' | 'first_name' | 'last_name'>): string {
  return [user.first_name, user.last_name].filter(Boolean).join(' ') || user.username;
}

export function MainMenu() {
  const { lines } = useSnapshot(basket);
  const { user } = useSnapshot(session);
  const count = lineCount(lines);
  return (
    <Menu
      trigger="click-hover"
      openDelay={MENU_OPEN_DELAY}
      closeDelay={MENU_CLOSE_DELAY}
      position="bottom-end"
      width={220}
      shadow="md"
    >
      <Menu.Target>
        <ActionIcon variant="subtle" size="lg" aria-label="Меню">
          <IconMenu2 size={22} aria-hidden />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {user && <Menu.Label>{displayName(user)}</Menu.Label>}
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
        {user && (
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
