import '@mantine/core/styles/Checkbox.css';
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/Input.css';
import { Anchor, Checkbox, Group, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertTriangle, IconClock } from '@tabler/icons-react';
import { Button } from '../../ui/controls/Button';
import { MessageBox } from '../../ui/MessageBox';
import { type FormEvent, type ReactNode, useRef, useState } from 'react';
import { useFormBeforeHydration, useHydrated } from '../../ui/hydration';
import { usePageData } from '../../ui/page-data';
import { flushSync } from 'react-dom';
import { Link } from 'wouter';
import { fieldErrors } from '../../api/http';
import type { OrderCommitResult } from '../../api/types';
import { TotalText, useBasketStore } from '../basket';
import {
  COMMENT_MAX,
  COMMIT_ACTION,
  type CommitValues,
  commitRules,
  commitValuesFrom,
  firstFailingField,
  type FocusField,
  initialCommitValues,
  orderFailureText,
  splitServerErrors,
  toOrderCommit,
} from './commit-form';
import { DeliveryChoice } from './DeliveryChoice';
import {
  ATTEMPT_FIELD,
  commitAttempt,
  isAttemptKey,
  newAttemptKey,
  ORDER_IN_PROGRESS,
  refusedAsInvalid,
} from './order-attempt';
import { PhoneField } from './PhoneField';
import { paths } from '../../lib/paths';

const BASKET_CHANGED =
  'Корзина изменилась: одно из изменений не сохранилось. Проверьте корзину и подтвердите заказ ещё раз.';

/** The order is not sent: a basket change did not land, so the basket is not what was seen. */
function BasketChanged() {
  return (
    <>
      {BASKET_CHANGED}{' '}
      {/* The alert's own text colour: the primary pink on its red falls short of AA in dark. */}
      <Anchor
        component={Link}
        href={paths.basket()}
        inherit
        c="inherit"
        fw={500}
        underline="always"
      >
        Открыть корзину
      </Anchor>
    </>
  );
}

/**
 * The key of the attempt the page holds: a refused form's (posted back to the page), else the
 * one in the server's HTML as the app takes it over (so both post the same), else a new one.
 */
function firstAttemptKey(posted: unknown): string {
  if (isAttemptKey(posted)) return posted;
  if (typeof document !== 'undefined') {
    const field = document.querySelector<HTMLInputElement>(
      `form[action="${COMMIT_ACTION}"] input[name="${ATTEMPT_FIELD}"]`,
    );
    if (isAttemptKey(field?.value)) return field.value;
  }
  return newAttemptKey();
}

interface CommitFormProps {
  total: number;
  /** total_price failed: the total shows as unknown, with `Повторить`. */
  totalFailed?: boolean;
  /** Runs after the server has accepted the order, with its answer. */
  onCommitted: (order: OrderCommitResult) => Promise<void> | void;
}

/** `Подтвердить заказ` (spec §2, §4, §5): phone, comment, delivery, consents, total, submit. */
export function CommitForm({ total, totalFailed = false, onCommitted }: CommitFormProps) {
  // A form posted without the app and refused comes back as it was sent, with its messages.
  const posted = usePageData()?.outcome;
  const { basketSettled } = useBasketStore();
  const form = useForm<CommitValues>({
    mode: 'controlled',
    initialValues: posted?.values ? commitValuesFrom(posted.values) : initialCommitValues,
    initialErrors: posted?.errors ?? {},
    validate: commitRules,
  });
  const failing = posted?.errors ? firstFailingField(posted.errors) : null;
  const formRef = useRef<HTMLFormElement>(null);
  // What the shopper typed or ticked before the app took the page over becomes the form's state
  // (the phone field takes its own: see PhoneField).
  useFormBeforeHydration(formRef, (fields) => {
    const typed = { ...commitValuesFrom(fields), phone: form.getValues().phone };
    if (JSON.stringify(typed) !== JSON.stringify(form.getValues())) form.setValues(typed);
  });
  // Without the app the browser posts the form whatever its boxes say, and the server judges.
  const waitsForPolicy = useHydrated();
  const [failure, setFailure] = useState<ReactNode>(null);
  const [attemptKey, setAttemptKey] = useState(() =>
    firstAttemptKey(posted?.values?.[ATTEMPT_FIELD]),
  );
  // The backend answered 409: the attempt's first request is being placed, and this one waits.
  const [waiting, setWaiting] = useState(false);
  const [sending, setSending] = useState(false);
  // State updates wait for a render; a second click in the same moment must see this at once.
  const sendingNow = useRef(false);
  const phoneRef = useRef<HTMLInputElement>(null);
  const commentRef = useRef<HTMLTextAreaElement>(null);
  const deliveryRef = useRef<HTMLInputElement>(null);
  const policyRef = useRef<HTMLInputElement>(null);

  const focusField = (field: FocusField) => {
    const refs = {
      phone: phoneRef,
      comment: commentRef,
      delivery: deliveryRef,
      policy_accept: policyRef,
    };
    const node = refs[field].current;
    if (!node) return;
    node.scrollIntoView({ block: 'center', behavior: 'smooth' });
    node.focus({ preventScroll: true });
  };

  const stopSending = () => {
    sendingNow.current = false;
    // The fields are disabled while sending; they must be enabled before one can take focus.
    flushSync(() => setSending(false));
  };

  const send = async (values: CommitValues) => {
    if (sendingNow.current) return;
    sendingNow.current = true;
    setSending(true);
    setFailure(null);
    // Amount changes still on their way must land first, or the order would miss them. If one
    // failed, its line went back to the server's amount: the order would not be what the
    // shopper saw, so it is not sent.
    if (!(await basketSettled())) {
      setFailure(<BasketChanged />);
      stopSending();
      return;
    }
    let order: OrderCommitResult;
    try {
      order = await commitAttempt(toOrderCommit(values), attemptKey, {
        onWaiting: () => setWaiting(true),
      });
    } catch (error) {
      setWaiting(false);
      // The shopper changes the form and sends it again: a new attempt.
      if (refusedAsInvalid(error)) setAttemptKey(newAttemptKey());
      const { fields, rest } = splitServerErrors(fieldErrors(error));
      for (const [field, message] of Object.entries(fields)) {
        form.setFieldError(field as keyof CommitValues, message);
      }
      const hasFieldErrors = Object.keys(fields).length > 0;
      if (!hasFieldErrors || rest.length > 0) setFailure(orderFailureText(error, rest));
      stopSending();
      const first = firstFailingField(fields);
      if (first) focusField(first);
      return;
    }
    // The order is placed: what follows must not report it as failed, nor send it again.
    await onCommitted(order);
  };

  const onInvalid = (errors: Record<string, unknown>) => {
    const first = firstFailingField(errors);
    if (first) focusField(first);
  };
  const onSubmit = (event: FormEvent<HTMLFormElement>) => form.onSubmit(send, onInvalid)(event);

  const { values, errors } = form;
  const asText = (error: unknown) => (error ? String(error) : undefined);
  return (
    <form
      ref={formRef}
      method="post"
      action={COMMIT_ACTION}
      onSubmit={onSubmit}
      noValidate
      aria-label="Подтверждение заказа"
    >
      <input type="hidden" name={ATTEMPT_FIELD} value={attemptKey} />
      <Stack gap="lg" maw={560}>
        <PhoneField
          value={values.phone}
          error={asText(errors.phone)}
          inputRef={phoneRef}
          onChange={(phone) => form.setFieldValue('phone', phone)}
          onKeyDown={() => form.clearFieldError('phone')}
          disabled={sending}
          autoFocus={failing === 'phone'}
        />
        <Textarea
          ref={commentRef}
          name="comment"
          autoFocus={failing === 'comment'}
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
          autoFocus={failing === 'delivery'}
        />
        <Stack gap="sm">
          <Checkbox
            {...form.getInputProps('policy_accept', { type: 'checkbox' })}
            ref={policyRef}
            name="policy_accept"
            autoFocus={failing === 'policy_accept'}
            error={asText(errors.policy_accept)}
            disabled={sending}
            label={
              <>
                Я согласен(на) с{' '}
                <Anchor
                  href={paths.policy()}
                  target="_blank"
                  rel="noopener"
                  inherit
                  underline="always"
                >
                  политикой конфиденциальности
                </Anchor>{' '}
                и даю согласие на обработку персональных данных
              </>
            }
          />
          <Checkbox
            {...form.getInputProps('send_accept', { type: 'checkbox' })}
            name="send_accept"
            error={asText(errors.send_accept)}
            disabled={sending}
            label="Хочу получать новости и специальные предложения магазина"
          />
        </Stack>
        {waiting && (
          <MessageBox color="blue" icon={<IconClock size={20} aria-hidden />} role="status">
            {ORDER_IN_PROGRESS}
          </MessageBox>
        )}
        {failure && (
          <MessageBox color="red" icon={<IconAlertTriangle size={20} aria-hidden />} role="alert">
            {failure}
          </MessageBox>
        )}
        <Group justify="space-between" align="center">
          <div>
            <Text size="sm" c="dimmed">
              Итого
            </Text>
            <TotalText total={total} failed={totalFailed} testId="commit-total" />
          </div>
          <Button
            type="submit"
            size="md"
            loading={sending}
            disabled={waitsForPolicy && !values.policy_accept}
          >
            Подтвердить
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
