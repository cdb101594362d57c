import '@mantine/core/styles/ThemeIcon.css';
import { Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBuildingStore, IconTruckDelivery } from '@tabler/icons-react';
import { formatRub } from '../../lib/money';
import {
  CITY,
  COURIER_PRICE_CITY,
  COURIER_PRICE_REMOTE_FROM,
  PICKUP_ADDRESS,
} from '../../lib/shop-info';
import classes from './DeliveryInfo.module.css';

/** Spec §2, §9: where the shop is, pickup or courier, and what the courier costs. */
export function DeliveryInfo() {
  return (
    <Paper withBorder className={classes.box} component="section" aria-labelledby="delivery-title">
      <Title order={2} id="delivery-title" mb="md">
        Доставка и самовывоз
      </Title>
      <Stack gap="md">
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <ThemeIcon variant="light" size="lg" radius="xl" aria-hidden>
            <IconBuildingStore size={20} />
          </ThemeIcon>
          <Text>
            Наш магазин находится по адресу: г. {CITY}, {PICKUP_ADDRESS}. Покупку можно забрать
            самостоятельно в пункте самовывоза в магазине или заказать доставку курьером.
          </Text>
        </Group>
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <ThemeIcon variant="light" size="lg" radius="xl" aria-hidden>
            <IconTruckDelivery size={20} />
          </ThemeIcon>
          <Text>
            Доставка курьером по городу — {formatRub(COURIER_PRICE_CITY)}, в отдалённые районы — от{' '}
            {formatRub(COURIER_PRICE_REMOTE_FROM)}.
          </Text>
        </Group>
      </Stack>
    </Paper>
  );
}
