// The phone rule (spec §5) and what the phone field does with typed and pasted numbers.

/** imask syntax for the spec's `+7(###)-###-##-##`: `0` is any digit, the rest is fixed. */
export const PHONE_MASK = '+7(000)-000-00-00';
export const PHONE_PLACEHOLDER = '+7(000)000-00-00';

export const PHONE_REQUIRED = 'Это обязательное поле';
export const PHONE_INVALID = 'Некорректный номер';

/** What is left after removing +7, dashes, brackets and spaces (spec §5). */
export function phoneRest(value: string): string {
  let rest = value.trim();
  if (rest.startsWith('+7')) rest = rest.slice(2);
  return rest.replace(/[\s()-]/g, '');
}

/** The 10 national digits `9XXXXXXXXX`, or null when the number breaks the rule. */
export function validPhoneDigits(value: string): string | null {
  const rest = phoneRest(value);
  return /^9\d{9}$/.test(rest) ? rest : null;
}

/** The form's message for a phone value, or null when it is valid. */
export function phoneError(value: string): string | null {
  if (phoneRest(value) === '') return PHONE_REQUIRED;
  return validPhoneDigits(value) === null ? PHONE_INVALID : null;
}

/**
 * The national digits of a number written in any common way: `8 912 345-67-89`,
 * `+7 912 345 67 89`, `7(912)3456789`, `9123456789`, `(912)345-67-89`. Eleven digits that start
 * with 7 or 8 lose that trunk prefix; anything else keeps all its digits.
 */
export function nationalDigits(text: string): string {
  const digits = text.replace(/\D/g, '');
  if (digits.length === 11 && (digits.startsWith('7') || digits.startsWith('8'))) {
    return digits.slice(1);
  }
  return digits;
}

/** `+7(912)-345-67-89`: how the mask shows 10 national digits. */
export function formatPhone(digits: string): string {
  const d = digits.padEnd(10, ' ');
  return `+7(${d.slice(0, 3)})-${d.slice(3, 6)}-${d.slice(6, 8)}-${d.slice(8, 10)}`.trimEnd();
}

/**
 * Prepares text before the mask places it. `filled` is how many national digits the field
 * already holds. Into an empty field, a whole number (pasted, autofilled, or set by the app)
 * goes in as its 10 national digits; a shorter start loses a leading 7 or 8, because the mask
 * already shows +7 and no valid number starts with 7 or 8 after it (`8 912…`, `+7 9…`).
 * Everything else passes unchanged.
 */
export function preparePhoneInput(chunk: string, filled: number): string {
  if (filled > 0) return chunk;
  const digits = chunk.replace(/\D/g, '');
  if (digits.length >= 10) return nationalDigits(chunk);
  return /^[78]/.test(digits) ? chunk.replace(/[78]/, '') : chunk;
}

/**
 * A number as the mask writes it when it has 10 national digits however it was typed
 * (`+7(912)345-67-89`, `89123456789`, `9123456789`: a form posted without the mask), otherwise
 * the text as it is, for the rule to judge.
 */
export function normalizePhone(text: string): string {
  const digits = nationalDigits(text);
  return digits.length === 10 ? formatPhone(digits) : text.trim();
}
