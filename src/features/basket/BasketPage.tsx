import '@mantine/core/styles/Divider.css';
import { Divider, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { Fragment } from 'react';
import { Link } from 'wouter';
import type { FailureCase } from '../../api/call-failure';
import { isPositiveTotal } from '../../lib/money';
import { CatalogButton } from '../../ui/CatalogButton';
import { Button } from '../../ui/controls/Button';
import { EmptyState } from '../../ui/EmptyState';
import { failureText } from '../../ui/failure-text';
import { BasketLine } from './BasketLine';
import classes from './BasketPage.module.css';
import { BasketLoadError, useBasketLoad } from './BasketLoadError';
import { lineCount, useBasket } from './store';
import { TotalText } from './TotalText';
import { paths } from '../../lib/paths';

/**
 * The bottom bar: the total and the way on, only while the total is worth paying (spec §2), or
 * while it is unknown because total_price failed (the lines are there, the way on stays open).
 */
function BasketBar({ total, totalFailed }: { total: number; totalFailed: boolean }) {
  return (
    <Group className={classes.bar} justify="space-between" wrap="nowrap">
      <div style={{ minWidth: 0 }}>
        <Text size="sm" c="dimmed">
          Итого
        </Text>
        <TotalText total={total} failed={totalFailed} testId="basket-total" />
      </div>
      {/* The way on keeps its full label; a long note on the left wraps instead. */}
      <Button component={Link} href={paths.commit()} size="md" style={{ flexShrink: 0 }}>
        Продолжить
      </Button>
    </Group>
  );
}

function LinesSkeleton() {
  return (
    <Stack gap="md" aria-busy="true" aria-label="Загрузка корзины">
      {[1, 2, 3].map((n) => (
        <Skeleton key={n} height={96} />
      ))}
    </Stack>
  );
}

/** The basket page's message when the basket did not load, by the failure's case. */
export const basketUnavailable = (failure: FailureCase): string =>
  failureText(
    'Не удалось загрузить корзину',
    failure,
    'Заказать пока нельзя — попробуйте ещё раз чуть позже.',
  );

/** `/order`, the basket (spec §2). */
export default function BasketPage() {
  const snap = useBasket();
  const lines = Object.values(snap.lines).filter((line) => line.amount > 0);
  const load = useBasketLoad();

  let content;
  if (load === 'failed') {
    content = <BasketLoadError text={basketUnavailable} />;
  } else if (load === 'loading') {
    content = <LinesSkeleton />;
  } else if (lineCount(snap.lines) === 0) {
    content = <EmptyState text="В корзине пока пусто" action={<CatalogButton />} />;
  } else {
    content = (
      <>
        <Stack gap="md">
          {lines.map((line, index) => (
            <Fragment key={line.product.id}>
              {index > 0 && <Divider />}
              <BasketLine line={line} />
            </Fragment>
          ))}
        </Stack>
        {(isPositiveTotal(snap.amount_sum) || snap.totalFailed) && (
          <BasketBar total={snap.amount_sum} totalFailed={snap.totalFailed} />
        )}
      </>
    );
  }

  return (
    <Stack gap="md">
      <Title order={1}>Корзина</Title>
      {content}
    </Stack>
  );
}
