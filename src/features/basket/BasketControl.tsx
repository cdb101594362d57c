import { Button, Group, Text } from '@mantine/core';
import { useSnapshot } from 'valtio';
import type { Product } from '../../api/types';
import { stepOf } from '../../lib/amount';
import { amountOf, basket, setAmount } from './store';

// Minimal control for the catalogue: `В корзину` adds one step and the amount shows.
// The basket issue completes it (minus/delete, number input, plus, limits).
export function BasketControl({ product }: { product: Product }) {
  const snap = useSnapshot(basket);
  const amount = amountOf(snap.lines, product.id);
  const busy = snap.loading || Boolean(snap.lineLoading[String(product.id)]);
  if (amount > 0) {
    return (
      <Group gap="xs">
        <Text fw={500}>
          В корзине: {amount} {product.unit}
        </Text>
      </Group>
    );
  }
  return (
    <Button
      fullWidth
      disabled={busy || !product.available}
      onClick={() => setAmount(product, stepOf(product))}
    >
      В корзину
    </Button>
  );
}
