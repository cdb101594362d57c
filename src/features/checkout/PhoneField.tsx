import '@mantine/core/styles/Input.css';
import { InputBase } from '@mantine/core';
import { useMergedRef } from '@mantine/hooks';
import { type Ref, useLayoutEffect, useRef } from 'react';
import { IMaskInput } from 'react-imask';
import { normalizePhone, PHONE_MASK, PHONE_PLACEHOLDER, preparePhoneInput } from '../../lib/phone';

interface PhoneFieldProps {
  value: string;
  error: string | undefined;
  inputRef: Ref<HTMLInputElement>;
  onChange: (value: string) => void;
  /** Any key press: the spec resets the field's error on it. */
  onKeyDown: () => void;
  disabled?: boolean;
  /** The field failed in a form posted without the app: the browser focuses it. */
  autoFocus?: boolean;
}

/**
 * The phone with the spec's mask `+7(###)-###-##-##`. A number pasted or autofilled in any
 * common form (8 912…, +7 912…, (912)…, 912…) lands as its 10 digits after +7.
 */
export function PhoneField({
  value,
  error,
  inputRef,
  onChange,
  onKeyDown,
  disabled,
  autoFocus,
}: PhoneFieldProps) {
  // A number typed before the app took the page over is read as the field is taken over: the
  // mask, starting from the form's state, would wipe it before any effect of the form could.
  const typedEarly = useRef<string | null>(null);
  const ref = useMergedRef(inputRef, (node: HTMLInputElement | null) => {
    if (node && typedEarly.current === null) typedEarly.current = node.value;
  });
  useLayoutEffect(() => {
    const typed = typedEarly.current;
    if (typed && typed !== value) onChange(normalizePhone(typed));
    // Once, as the field is taken over.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <InputBase
      component={IMaskInput}
      mask={PHONE_MASK}
      prepare={(chunk: string, masked: { unmaskedValue: string }) =>
        preparePhoneInput(chunk, masked.unmaskedValue.length)
      }
      inputRef={ref}
      value={value}
      // The mask fills the field once the app runs; the server's HTML (a posted form shown
      // again) holds the number as the shopper sent it.
      defaultValue={value}
      onAccept={(next: string) => onChange(next)}
      onKeyDown={onKeyDown}
      label="Телефон"
      placeholder={PHONE_PLACEHOLDER}
      type="tel"
      inputMode="tel"
      autoComplete="tel"
      name="phone"
      required
      withAsterisk
      error={error}
      disabled={disabled}
      autoFocus={autoFocus}
    />
  );
}
