import '@mantine/core/styles/Accordion.css';
import { Accordion, Anchor, Badge, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import type { Order } from '../../api/types';
import { formatOrderDate } from '../../lib/date';
import { formatRub } from '../../lib/money';
import { STATUS_BOT_URL } from '../../lib/shop-info';
import { CatalogButton } from '../../ui/CatalogButton';
import { EmptyState } from '../../ui/EmptyState';
import { Loaded } from '../../ui/Loaded';
import { useShopTimeZone } from '../../ui/time-zone';
import type { Load } from '../../ui/useLoads';
import { newestFirst } from './newest-first';
import { OrderItems } from './OrderItems';
import { statusBadgeColor, statusLabel } from './order-status';

function BotNote() {
  return (
    <Text size="sm" c="dimmed">
      Об изменении статуса заказа мы сообщаем в нашем чат-боте:{' '}
      <Anchor
        href={STATUS_BOT_URL}
        target="_blank"
        rel="noopener noreferrer"
        inherit
        underline="always"
      >
        открыть чат-бот
        <IconExternalLink
          size={14}
          aria-hidden
          style={{ marginInlineStart: 4, verticalAlign: -2 }}
        />
      </Anchor>
    </Text>
  );
}

function OrderRow({ order }: { order: Order }) {
  const timeZone = useShopTimeZone();
  return (
    <Accordion.Item value={String(order.id)} data-testid="order">
      <Accordion.Control>
        <Group justify="space-between" gap="xs" wrap="wrap" pr="xs">
          <div>
            <Text fw={500}>Заказ № {order.id}</Text>
            <Text size="sm" c="dimmed">
              {formatOrderDate(order.created_ts, timeZone)}
            </Text>
          </div>
          <Group gap="xs">
            <Badge variant="light" color="gray" size="lg" tt="none" data-testid="order-sum">
              {formatRub(order.order_sum)}
            </Badge>
            <Badge
              variant="filled"
              color={statusBadgeColor(order.status)}
              size="lg"
              tt="none"
              data-testid="order-status"
            >
              {statusLabel(order.status)}
            </Badge>
          </Group>
        </Group>
      </Accordion.Control>
      <Accordion.Panel>
        <OrderItems items={order.items} />
      </Accordion.Panel>
    </Accordion.Item>
  );
}

/** `/order_status`, the order history (spec §2). */
export default function OrderStatusPage({ history }: { history: Load<Order[]> }) {
  return (
    <Stack gap="md">
      <Title order={1}>Заказы</Title>
      <BotNote />
      <Loaded
        load={history}
        pending={
          <Stack gap="sm" aria-busy="true" aria-label="Загрузка заказов">
            {[1, 2, 3].map((n) => (
              <Skeleton key={n} height={64} />
            ))}
          </Stack>
        }
        what="Не удалось загрузить заказы"
      >
        {(orders) =>
          orders.length === 0 ? (
            <EmptyState text="У вас пока нет заказов" action={<CatalogButton />} />
          ) : (
            <Accordion variant="separated" multiple chevronPosition="right">
              {newestFirst(orders).map((order) => (
                <OrderRow key={order.id} order={order} />
              ))}
            </Accordion>
          )
        }
      </Loaded>
    </Stack>
  );
}
