import { Group } from '@mantine/core';
import { IconMinus, IconPlus, IconTrash } from '@tabler/icons-react';
import { type FormEvent, type ReactNode, useState } from 'react';
import type { Product } from '../../api/types';
import { canAdd, canIncrease, showsMinus } from '../../lib/amount';
import { BackField } from '../../ui/BackField';
import { Button } from '../../ui/controls/Button';
import { IconButton } from '../../ui/controls/IconButton';
import { AmountField } from './AmountField';
import { BASKET_ACTION, requestedAmount } from './basket-form';
import { focusableDisabled } from './focusable-disabled';
import { amountOf, checkedProduct, useBasket, useBasketStore } from './store';

/**
 * The basket control (spec §4, §5). At 0: `В корзину` adds one step. Above 0: minus (or delete
 * at one step), the amount with its unit, and plus (disabled at min(rest, 10)). A change shows
 * at once; everything waits while the basket or this product's line is loading, until the
 * server has answered.
 *
 * It is a form the shop's server handles (src/server-entry/basket-form.ts) before the app's code arrives,
 * and without it: each button posts its change, and Enter in the amount field posts the amount.
 * Once the app runs, it handles the same form itself, with the same rules (basket-form.ts).
 */
export function BasketControl({ product: shown }: { product: Product }) {
  const snap = useBasket();
  const { addToBasket, removeLine, setAmount, state } = useBasketStore();
  // After the server refused a change, its newer rest and availability set the limits.
  const product = checkedProduct(snap.checkedProducts, shown);
  const [editing, setEditing] = useState(false);
  const amount = amountOf(snap.lines, product.id);
  const busy = snap.loading || Boolean(snap.lineLoading[String(product.id)]);
  const usable = product.available && !busy;
  const plusUsable = usable && canIncrease(product, amount);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const change = (event.nativeEvent as SubmitEvent).submitter?.getAttribute('value');
    // The latest amount (`state`, not `snap`): a save's answer may have come since the render.
    // The amount field applies its own Enter; a press on a waiting control does nothing.
    if (change === 'add') void addToBasket(product);
    else if (change === 'delete') {
      if (!busy) void removeLine(product);
    } else if (change === 'minus' || change === 'plus') {
      if (change === 'plus' ? plusUsable : usable) {
        void setAmount(
          product,
          requestedAmount(change, product, amountOf(state.lines, product.id)) ?? 0,
        );
      }
    }
  };

  return (
    <form method="post" action={BASKET_ACTION} onSubmit={onSubmit}>
      <input type="hidden" name="product" value={product.id} />
      <BackField />
      {amount <= 0 && !editing ? (
        <AddButton disabled={busy || !product.available || !canAdd(product)} />
      ) : (
        <Group gap={4} wrap="nowrap" aria-busy={busy} data-testid="basket-control">
          {/* The form's default button: Enter in the amount field posts the amount. */}
          <button type="submit" name="change" value="set" hidden />
          {showsMinus(product, amount) ? (
            <ChangeButton
              change="minus"
              label={`Уменьшить количество: ${product.name}`}
              disabled={!usable}
            >
              <IconMinus size={18} aria-hidden />
            </ChangeButton>
          ) : (
            <ChangeButton
              change="delete"
              label={`Убрать из корзины: ${product.name}`}
              disabled={busy}
              red
            >
              <IconTrash size={18} aria-hidden />
            </ChangeButton>
          )}
          <AmountField
            product={product}
            amount={amount}
            disabled={!usable}
            onCommit={(next) => void setAmount(product, next)}
            onEditingChange={setEditing}
          />
          <ChangeButton
            change="plus"
            label={`Увеличить количество: ${product.name}`}
            disabled={!plusUsable}
          >
            <IconPlus size={18} aria-hidden />
          </ChangeButton>
        </Group>
      )}
    </form>
  );
}

/** `В корзину`, as wide as the card. */
function AddButton({ disabled }: { disabled: boolean }) {
  return (
    <Button type="submit" name="change" value="add" disabled={disabled} fullWidth>
      В корзину
    </Button>
  );
}

interface ChangeButtonProps {
  change: 'minus' | 'delete' | 'plus';
  label: string;
  disabled: boolean;
  red?: boolean;
  children: ReactNode;
}

/** One of the control's buttons: it posts its change, and keeps the focus while it waits. */
function ChangeButton({ change, label, disabled, red = false, children }: ChangeButtonProps) {
  return (
    <IconButton
      type="submit"
      name="change"
      value={change}
      variant="light"
      size="lg"
      color={red ? 'red' : undefined}
      aria-label={label}
      {...focusableDisabled(disabled)}
    >
      {children}
    </IconButton>
  );
}
