import { ActionIcon, Button, Group } from '@mantine/core';
import { IconMinus, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import type { Product } from '../../api/types';
import { canAdd, canIncrease, decreased, increased, showsMinus } from '../../lib/amount';
import { AmountField } from './AmountField';
import { focusableDisabled } from './focusable-disabled';
import {
  addToBasket,
  amountOf,
  basket,
  checkedProduct,
  removeLine,
  setAmount,
  useBasket,
} from './store';

/** The latest amount: a save's answer may have come since the last render. */
function currentAmount(product: Product): number {
  return amountOf(basket.lines, product.id);
}

/**
 * The basket control (spec §4, §5). At 0: `В корзину` adds one step. Above 0: minus (or delete
 * at one step), the amount with its unit, and plus (disabled at min(rest, 10)). A change shows
 * at once; everything waits while the basket or this product's line is loading, until the
 * server has answered.
 */
export function BasketControl({ product: shown }: { product: Product }) {
  const snap = useBasket();
  // After the server refused a change, its newer rest and availability set the limits.
  const product = checkedProduct(snap.checkedProducts, shown);
  const [editing, setEditing] = useState(false);
  const amount = amountOf(snap.lines, product.id);
  const busy = snap.loading || Boolean(snap.lineLoading[String(product.id)]);

  if (amount <= 0 && !editing) {
    return (
      <Button
        fullWidth
        disabled={busy || !product.available || !canAdd(product)}
        onClick={() => void addToBasket(product)}
      >
        В корзину
      </Button>
    );
  }

  const usable = product.available && !busy;
  const plusUsable = usable && canIncrease(product, amount);
  return (
    <Group gap={4} wrap="nowrap" aria-busy={busy} data-testid="basket-control">
      {showsMinus(product, amount) ? (
        <ActionIcon
          size={34}
          variant="light"
          aria-label={`Уменьшить количество: ${product.name}`}
          {...focusableDisabled(!usable)}
          onClick={() => {
            if (usable) void setAmount(product, decreased(product, currentAmount(product)));
          }}
        >
          <IconMinus size={18} aria-hidden />
        </ActionIcon>
      ) : (
        <ActionIcon
          size={34}
          variant="light"
          color="red"
          aria-label={`Убрать из корзины: ${product.name}`}
          {...focusableDisabled(busy)}
          onClick={() => {
            if (!busy) void removeLine(product);
          }}
        >
          <IconTrash size={18} aria-hidden />
        </ActionIcon>
      )}
      <AmountField
        product={product}
        amount={amount}
        disabled={!usable}
        onCommit={(next) => void setAmount(product, next)}
        onEditingChange={setEditing}
      />
      <ActionIcon
        size={34}
        variant="light"
        aria-label={`Увеличить количество: ${product.name}`}
        {...focusableDisabled(!plusUsable)}
        onClick={() => {
          if (plusUsable) void setAmount(product, increased(product, currentAmount(product)));
        }}
      >
        <IconPlus size={18} aria-hidden />
      </ActionIcon>
    </Group>
  );
}
