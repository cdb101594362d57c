import '@mantine/core/styles/Divider.css';
import { Button, Divider, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { Fragment } from 'react';
import { useSnapshot } from 'valtio';
import { Link } from 'wouter';
import { useDocumentTitle } from '../../lib/document-title';
import { formatRub, isPositiveTotal } from '../../lib/money';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorState } from '../../ui/ErrorState';
import { BasketLine } from './BasketLine';
import classes from './BasketPage.module.css';
import { basket, lineCount, loadBasket } from './store';

/** The bottom bar: the total and the way on, only while the total is worth paying (spec §2). */
function BasketBar({ total }: { total: number }) {
  return (
    <Group className={classes.bar} justify="space-between" wrap="nowrap">
      <div>
        <Text size="sm" c="dimmed">
          Итого
        </Text>
        <Text fw={700} fz="xl" data-testid="basket-total">
          {formatRub(total)}
        </Text>
      </div>
      <Button component={Link} href="/commit" size="md">
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

/** `/order`, the basket (spec §2). */
export default function BasketPage() {
  useDocumentTitle('Корзина');
  const snap = useSnapshot(basket);
  const lines = Object.values(snap.lines).filter((line) => line.amount > 0);

  let content;
  if (!snap.loaded && snap.loadFailed && !snap.loading) {
    content = (
      <ErrorState
        message="Не удалось загрузить корзину. Проверьте соединение и попробуйте ещё раз."
        onRetry={() => void loadBasket()}
      />
    );
  } else if (!snap.loaded) {
    content = <LinesSkeleton />;
  } else if (lineCount(snap.lines) === 0) {
    content = (
      <EmptyState
        text="В корзине пока пусто"
        action={
          <Button component={Link} href="/catalog">
            В каталог товаров
          </Button>
        }
      />
    );
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
        {isPositiveTotal(snap.amount_sum) && <BasketBar total={snap.amount_sum} />}
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
