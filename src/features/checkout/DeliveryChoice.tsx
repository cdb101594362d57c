import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/Radio.css';
import { Radio, Stack } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { MessageBox } from '../../ui/MessageBox';
import type { Ref } from 'react';
import type { Delivery } from '../../api/types';
import { formatRub } from '../../lib/money';
import {
  CITY,
  COURIER_PRICE_CITY,
  COURIER_PRICE_REMOTE_FROM,
  PICKUP_ADDRESS,
} from '../../lib/shop-info';

export const DELIVERY_LABELS: Record<Delivery, string> = {
  '1': 'Доставка курьером',
  '2': 'Самовывоз',
};

/** The note each choice shows (spec §4, §9). */
export const DELIVERY_NOTES: Record<Delivery, string> = {
  '1': `Доставка по городу — ${formatRub(COURIER_PRICE_CITY)}, в отдалённые районы — от ${formatRub(COURIER_PRICE_REMOTE_FROM)}.`,
  '2': `Заберите заказ сами в нашем магазине: ${CITY}, ${PICKUP_ADDRESS}.`,
};

interface DeliveryChoiceProps {
  value: Delivery | '';
  error: string | undefined;
  /** The first radio: where the focus goes when no choice is made. */
  firstRef: Ref<HTMLInputElement>;
  onChange: (value: Delivery) => void;
  disabled?: boolean;
  /** No choice in a form posted without the app: the browser focuses the first one. */
  autoFocus?: boolean;
}

export function DeliveryChoice({
  value,
  error,
  firstRef,
  onChange,
  disabled,
  autoFocus,
}: DeliveryChoiceProps) {
  return (
    <Stack gap="xs">
      <Radio.Group<Delivery>
        label="Способ получения"
        withAsterisk
        value={value === '' ? null : value}
        onChange={onChange}
        error={error}
        name="delivery"
        disabled={disabled}
      >
        <Stack gap="sm" mt="xs">
          <Radio value="1" label={DELIVERY_LABELS['1']} ref={firstRef} autoFocus={autoFocus} />
          <Radio value="2" label={DELIVERY_LABELS['2']} />
        </Stack>
      </Radio.Group>
      {value !== '' && (
        <MessageBox
          color={value === '1' ? 'blue' : 'green'}
          icon={<IconInfoCircle size={20} aria-hidden />}
          role="status"
          data-testid="delivery-note"
        >
          {DELIVERY_NOTES[value]}
        </MessageBox>
      )}
    </Stack>
  );
}
