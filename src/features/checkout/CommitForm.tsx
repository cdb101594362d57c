import '@mantine/core/styles/Checkbox.css';
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/Input.css';
import { Alert, Anchor, Button, Checkbox, Group, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertTriangle } from '@tabler/icons-react';
import { type FormEvent, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { errorStatus, fieldErrors } from '../../api/http';
import { commitOrder } from '../../api/orders';
import { basketSettled, TotalText } from '../basket';
import {
  COMMENT_MAX,
  type CommitValues,
  commitRules,
  firstFailingField,
  type FocusField,
  initialCommitValues,
  splitServerErrors,
  toOrderCommit,
} from './commit-form';
import { DeliveryChoice } from './DeliveryChoice';
import { PhoneField } from './PhoneField';

const SEND_FAILED = 'Не удалось отправить заказ. Проверьте соединение и попробуйте ещё раз.';
const SERVER_FAILED = 'Сервер не смог принять заказ. Попробуйте ещё раз чуть позже.';

function failureText(error: unknown, rest: string[]): string {
  if (rest.length > 0) return rest.join(' ');
  const status = errorStatus(error);
  return status === undefined ? SEND_FAILED : SERVER_FAILED;
}

interface CommitFormProps {
  total: number;
  /** total_price failed: the total shows as unknown, with `Повторить`. */
  totalFailed?: boolean;
  /** Runs after the server has accepted the order. */
  onCommitted: () => Promise<void> | void;
}

/** `Подтвердить заказ` (spec §2, §4, §5): phone, comment, delivery, consents, total, submit. */
export function CommitForm({ total, totalFailed = false, onCommitted }: CommitFormProps) {
  const form = useForm<CommitValues>({
    mode: 'controlled',
    initialValues: initialCommitValues,
    validate: commitRules,
  });
  const [failure, setFailure] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  // State updates wait for a render; a second click in the same moment must see this at once.
  const sendingNow = useRef(false);
  const phoneRef = useRef<HTMLInputElement>(null);
  const commentRef = useRef<HTMLTextAreaElement>(null);
  const deliveryRef = useRef<HTMLInputElement>(null);

  const focusField = (field: FocusField) => {
    const node = { phone: phoneRef, comment: commentRef, delivery: deliveryRef }[field].current;
    if (!node) return;
    node.scrollIntoView({ block: 'center', behavior: 'smooth' });
    node.focus({ preventScroll: true });
  };

  const send = async (values: CommitValues) => {
    if (sendingNow.current) return;
    sendingNow.current = true;
    setSending(true);
    setFailure(null);
    try {
      // Amount changes still on their way must land first, or the order would miss them.
      await basketSettled();
      await commitOrder(toOrderCommit(values));
      await onCommitted();
    } catch (error) {
      const { fields, rest } = splitServerErrors(fieldErrors(error));
      for (const [field, message] of Object.entries(fields)) {
        form.setFieldError(field as keyof CommitValues, message);
      }
      const hasFieldErrors = Object.keys(fields).length > 0;
      if (!hasFieldErrors || rest.length > 0) setFailure(failureText(error, rest));
      sendingNow.current = false;
      // The fields are disabled while sending; they must be enabled before one can take focus.
      flushSync(() => setSending(false));
      const first = firstFailingField(fields);
      if (first) focusField(first);
    }
  };

  const onInvalid = (errors: Record<string, unknown>) => {
    const first = firstFailingField(errors);
    if (first) focusField(first);
  };
  const onSubmit = (event: FormEvent<HTMLFormElement>) => form.onSubmit(send, onInvalid)(event);

  const { values, errors } = form;
  const asText = (error: unknown) => (error ? String(error) : undefined);
  return (
    <form onSubmit={onSubmit} noValidate aria-label="Подтверждение заказа">
      <Stack gap="lg" maw={560}>
        <PhoneField
          value={values.phone}
          error={asText(errors.phone)}
          inputRef={phoneRef}
          onChange={(phone) => form.setFieldValue('phone', phone)}
          onKeyDown={() => form.clearFieldError('phone')}
          disabled={sending}
        />
        <Textarea
          ref={commentRef}
          label="Комментарий к заказу"
          description={`${values.comment.length} / ${COMMENT_MAX}`}
          placeholder="Например, удобное время доставки"
          rows={3}
          maxLength={COMMENT_MAX}
          {...form.getInputProps('comment')}
          error={asText(errors.comment)}
          onKeyDown={() => form.clearFieldError('comment')}
          disabled={sending}
        />
        <DeliveryChoice
          value={values.delivery}
          error={asText(errors.delivery)}
          firstRef={deliveryRef}
          onChange={(delivery) => form.setFieldValue('delivery', delivery)}
          disabled={sending}
        />
        <Stack gap="sm">
          <Checkbox
            {...form.getInputProps('policy_accept', { type: 'checkbox' })}
            error={asText(errors.policy_accept)}
            disabled={sending}
            label={
              <>
                Я согласен(на) с{' '}
                <Anchor href="/policy" target="_blank" rel="noopener" inherit underline="always">
                  политикой конфиденциальности
                </Anchor>{' '}
                и даю согласие на обработку персональных данных
              </>
            }
          />
          <Checkbox
            {...form.getInputProps('send_accept', { type: 'checkbox' })}
            error={asText(errors.send_accept)}
            disabled={sending}
            label="Хочу получать новости и специальные предложения магазина"
          />
        </Stack>
        {failure && (
          <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden />} role="alert">
            {failure}
          </Alert>
        )}
        <Group justify="space-between" align="center">
          <div>
            <Text size="sm" c="dimmed">
              Итого
            </Text>
            <TotalText total={total} failed={totalFailed} testId="commit-total" />
          </div>
          <Button type="submit" size="md" loading={sending} disabled={!values.policy_accept}>
            Подтвердить
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
