import { ActionIcon, Button, Group } from '@mantine/core';
import { IconMinus, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import type { Product } from '../../api/types';
import { canAdd, canIncrease, decreased, increased, showsMinus } from '../../lib/amount';
import { AmountField } from './AmountField';
import {
  addToBasket,
  amountOf,
  basket,
  checkedProduct,
  removeLine,
  setAmount,
  useBasket,
} from './store';

/** The latest amount, including clicks whose render has not happened yet. */
function currentAmount(product: Product): number {
  return amountOf(basket.lines, product.id);
}

/**
 * The basket control (spec §4, §5). At 0: `В корзину` adds one step. Above 0: minus (or delete
 * at one step), the amount with its unit, and plus (disabled at min(rest, 10)). Everything waits
 * while the basket loads or this line is being removed; amount changes show at once and are
 * queued in the store, so fast clicks all count.
 */
export function BasketControl({ product: shown }: { product: Product }) {
  const snap = useBasket();
  // After the server refused a change, its newer rest and availability set the limits.
  const product = checkedProduct(snap.checkedProducts, shown);
  const [editing, setEditing] = useState(false);
  const amount = amountOf(snap.lines, product.id);
  const busy = snap.loading || Boolean(snap.lineRemoving[String(product.id)]);
  const saving = Boolean(snap.lineSaving[String(product.id)]);

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
  return (
    <Group gap={4} wrap="nowrap" aria-busy={saving || busy} data-testid="basket-control">
      {showsMinus(product, amount) ? (
        <ActionIcon
          size={34}
          variant="light"
          aria-label={`Уменьшить количество: ${product.name}`}
          disabled={!usable}
          onClick={() => void setAmount(product, decreased(product, currentAmount(product)))}
        >
          <IconMinus size={18} aria-hidden />
        </ActionIcon>
      ) : (
        <ActionIcon
          size={34}
          variant="light"
          color="red"
          aria-label={`Убрать из корзины: ${product.name}`}
          disabled={busy}
          onClick={() => void removeLine(product)}
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
        disabled={!usable || !canIncrease(product, amount)}
        onClick={() => void setAmount(product, increased(product, currentAmount(product)))}
      >
        <IconPlus size={18} aria-hidden />
      </ActionIcon>
    </Group>
  );
}
