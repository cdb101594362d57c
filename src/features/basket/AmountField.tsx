import { type KeyboardEvent, useRef, useState } from 'react';
import type { Product } from '../../api/types';
import {
  clampAmount,
  decreased,
  formatAmount,
  increased,
  parseAmountText,
  precisionOf,
  sanitizeAmountText,
} from '../../lib/amount';
import { TextInput } from '../../ui/controls/TextInput';
import { useTypedBeforeHydration } from '../../ui/hydration';
import { focusableDisabled } from './focusable-disabled';

interface AmountFieldProps {
  product: Product;
  amount: number;
  /** Read-only and marked disabled, but it keeps the focus (see `focusableDisabled`). */
  disabled: boolean;
  /** Called with a valid amount (0 included) when typing is done. */
  onCommit: (amount: number) => void;
  /** Typing starts or ends: an amount of 0 while typing keeps the field, not `В корзину`. */
  onEditingChange: (editing: boolean) => void;
}

/**
 * The amount as text, with the unit in front. While focused it holds what the shopper types,
 * filtered by `sanitizeAmountText` (digits and one `,` or `.`, no more decimals than the unit
 * allows; a key the field does not take changes nothing); Enter or leaving the field applies
 * it, Escape drops it, and the arrow keys step like plus and minus. While disabled it only shows
 * the amount: it keeps the focus after Enter while the line saves, and typing starts again once
 * the server has answered.
 */
export function AmountField({
  product,
  amount,
  disabled,
  onCommit,
  onEditingChange,
}: AmountFieldProps) {
  const precision = precisionOf(product);
  const [text, setText] = useState<string | null>(null);
  const field = useRef<HTMLInputElement>(null);
  const shown = text ?? formatAmount(amount, precision);
  // An amount typed before the app took the page over is kept, as if typed now: Enter or
  // leaving the field applies it.
  useTypedBeforeHydration(field, shown, (typed) => {
    setText(sanitizeAmountText(typed, precision));
    onEditingChange(true);
  });

  const stopEditing = () => {
    setText(null);
    onEditingChange(false);
  };
  const commit = () => {
    if (text === null) return;
    const typed = parseAmountText(text);
    stopEditing();
    if (typed === null) return;
    const next = clampAmount(product, typed);
    if (next !== amount) onCommit(next);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (disabled) return;
    if (event.key === 'Enter') {
      event.preventDefault();
      commit();
    } else if (event.key === 'Escape') {
      stopEditing();
    } else if (event.key === 'ArrowUp' || event.key === 'ArrowDown') {
      event.preventDefault();
      const base = clampAmount(product, parseAmountText(text ?? '') ?? amount);
      const next = event.key === 'ArrowUp' ? increased(product, base) : decreased(product, base);
      if (next > 0) setText(formatAmount(next, precision));
    }
  };

  return (
    <TextInput
      ref={field}
      name="amount"
      aria-label={`Количество, ${product.unit}`}
      inputMode={precision > 0 ? 'decimal' : 'numeric'}
      autoComplete="off"
      value={shown}
      readOnly={disabled}
      {...focusableDisabled(disabled)}
      leftSection={product.unit}
      // Sized to the unit's text: in a two-column card on a 360 px phone the field is ~50 px
      // wide, and Mantine's default section width would leave no room for the number.
      sectionWidth={product.unit.length * 8 + 10}
      centered
      onFocus={(event) => {
        if (disabled) return;
        setText(formatAmount(amount, precision));
        onEditingChange(true);
        event.currentTarget.select();
      }}
      onChange={(event) => setText(sanitizeAmountText(event.currentTarget.value, precision))}
      onBlur={commit}
      onKeyDown={onKeyDown}
    />
  );
}
