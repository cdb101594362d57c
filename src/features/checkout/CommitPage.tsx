import { Button, Skeleton, Stack, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { Link, useLocation } from 'wouter';
import type { OrderCommitResult } from '../../api/types';
import { useDocumentTitle } from '../../lib/document-title';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorState } from '../../ui/ErrorState';
import { basket, claimLoadFailure, lineCount, loadBasket, takeOrderedLines } from '../basket';
import { CommitForm } from './CommitForm';

/** `/commit` (spec §2): the checkout form, or the empty-basket state. */
export default function CommitPage() {
  useDocumentTitle('Подтверждение заказа');
  const snap = useSnapshot(basket);
  const [, navigate] = useLocation();
  // After the order is accepted the basket empties; the form stays until the page changes.
  const [committed, setCommitted] = useState(false);
  // A basket that never loaded shows here as an error state, not as a notice on top of it.
  useEffect(claimLoadFailure, []);

  const onCommitted = async (order: OrderCommitResult) => {
    setCommitted(true);
    await takeOrderedLines(order);
    navigate('/order_status');
  };

  let content;
  if (!snap.loaded && snap.loadFailed && !snap.loading) {
    content = (
      <ErrorState
        message="Не удалось загрузить корзину. Проверьте соединение и попробуйте ещё раз."
        onRetry={() => void loadBasket()}
      />
    );
  } else if (!snap.loaded) {
    content = <Skeleton height={420} maw={560} aria-busy="true" aria-label="Загрузка" />;
  } else if (lineCount(snap.lines) === 0 && !committed) {
    content = (
      <EmptyState
        text="В вашей корзине пусто"
        action={
          <Button component={Link} href="/catalog">
            В каталог товаров
          </Button>
        }
      />
    );
  } else {
    content = (
      <CommitForm
        total={snap.amount_sum}
        totalFailed={snap.totalFailed}
        onCommitted={onCommitted}
      />
    );
  }

  return (
    <Stack gap="md">
      <Title order={1}>Подтвердить заказ</Title>
      {content}
    </Stack>
  );
}
