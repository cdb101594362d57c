import { Skeleton, Stack, Title } from '@mantine/core';
import { useState } from 'react';
import { useLocation } from 'wouter';
import type { FailureCase } from '../../api/call-failure';
import type { OrderCommitResult } from '../../api/types';
import { CatalogButton } from '../../ui/CatalogButton';
import { EmptyState } from '../../ui/EmptyState';
import { failureText } from '../../ui/failure-text';
import { usePageData } from '../../ui/page-data';
import {
  BasketLoadError,
  lineCount,
  orderableLineCount,
  useBasket,
  useBasketLoad,
  useBasketStore,
} from '../basket';
import { CommitForm } from './CommitForm';
import { paths } from '../../lib/paths';

/** The checkout's message when the basket did not load, by the failure's case. */
export const checkoutUnavailable = (failure: FailureCase): string =>
  failureText(
    'Оформить заказ сейчас нельзя, корзина не загрузилась',
    failure,
    'Попробуйте ещё раз чуть позже.',
  );

/** `/commit` (spec §2): the checkout form, or the empty-basket state. */
export default function CommitPage() {
  const snap = useBasket();
  const { takeOrderedLines } = useBasketStore();
  const [, navigate] = useLocation();
  // After the order is accepted the basket empties; the form stays until the page changes.
  const [committed, setCommitted] = useState(false);
  const load = useBasketLoad();
  const posted = usePageData()?.outcome;

  const onCommitted = async (order: OrderCommitResult) => {
    setCommitted(true);
    await takeOrderedLines(order);
    navigate(paths.orders());
  };

  let content;
  if (load === 'failed' && posted?.values) {
    // A form posted while the backend was out: what was typed stays, with the server's message.
    content = <CommitForm total={snap.amount_sum} totalFailed onCommitted={onCommitted} />;
  } else if (load === 'failed') {
    content = <BasketLoadError text={checkoutUnavailable} />;
  } else if (load === 'loading') {
    content = <Skeleton height={420} maw={560} aria-busy="true" aria-label="Загрузка" />;
  } else if (lineCount(snap.lines) === 0 && !committed) {
    content = <EmptyState text="В вашей корзине пусто" action={<CatalogButton />} />;
  } else if (orderableLineCount(snap.lines) === 0 && !committed) {
    // Only sold-out or unpriced lines: an order of them would be refused.
    content = <EmptyState text="В корзине нет доступных товаров" action={<CatalogButton />} />;
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
