import IMask from 'imask';
import { describe, expect, it } from 'vitest';
import {
  formatPhone,
  nationalDigits,
  PHONE_INVALID,
  PHONE_MASK,
  PHONE_REQUIRED,
  phoneError,
  preparePhoneInput,
  validPhoneDigits,
} from '../../../src/lib/phone';

describe('the phone rule (spec §5): 10 digits starting with 9 after removing +7, dashes, brackets', () => {
  it.each<[string, string | null]>([
    // valid
    ['+7(912)-345-67-89', null],
    ['+7(999)-999-99-99', null],
    ['+7(900)-000-00-00', null],
    ['+7(912)345-67-89', null],
    ['+7 (912) 345-67-89', null],
    ['+79123456789', null],
    ['9123456789', null],
    ['(912)3456789', null],
    ['912-345-67-89', null],
    ['  +7(912)-345-67-89  ', null],
    // required
    ['', PHONE_REQUIRED],
    ['   ', PHONE_REQUIRED],
    ['+7', PHONE_REQUIRED],
    ['+7(', PHONE_REQUIRED],
    ['+7()--', PHONE_REQUIRED],
    // invalid
    ['+7(812)-345-67-89', PHONE_INVALID],
    ['+7(012)-345-67-89', PHONE_INVALID],
    ['+7(912)-345-67-8', PHONE_INVALID],
    ['+7(912)-345-67-890', PHONE_INVALID],
    ['+7(912)-345-6', PHONE_INVALID],
    ['89123456789', PHONE_INVALID],
    ['79123456789', PHONE_INVALID],
    ['+8(912)-345-67-89', PHONE_INVALID],
    ['+7(912)-345-67-8a', PHONE_INVALID],
    ['+7(912)_345_67_89', PHONE_INVALID],
    ['+7(912).345.67.89', PHONE_INVALID],
    ['+7+7(912)-345-67-89', PHONE_INVALID],
    ['9', PHONE_INVALID],
    ['+7(９12)-345-67-89', PHONE_INVALID],
  ])('%j → %s', (value, message) => {
    expect(phoneError(value)).toBe(message);
    expect(validPhoneDigits(value) === null).toBe(message !== null);
  });

  it('gives the 10 digits of a valid number', () => {
    expect(validPhoneDigits('+7(912)-345-67-89')).toBe('9123456789');
  });
});

describe('numbers written in common ways', () => {
  it.each<[string, string]>([
    ['8 912 345-67-89', '9123456789'],
    ['8 (912) 345-67-89', '9123456789'],
    ['+7 912 345 67 89', '9123456789'],
    ['+7(912)-345-67-89', '9123456789'],
    ['7 912 345 67 89', '9123456789'],
    ['9123456789', '9123456789'],
    ['(912)3456789', '9123456789'],
    ['912.345.67.89', '9123456789'],
    ['+1 912 345 67 89', '19123456789'],
    ['12345', '12345'],
  ])('nationalDigits(%j) is %j', (text, digits) => {
    expect(nationalDigits(text)).toBe(digits);
  });

  it('formats 10 digits the way the mask shows them', () => {
    expect(formatPhone('9123456789')).toBe('+7(912)-345-67-89');
  });
});

/** What the phone field shows after `text` is pasted (or autofilled) into it. */
function masked(text: string, before = ''): string {
  const mask = IMask.createMask({
    mask: PHONE_MASK,
    prepare: (chunk: string, current: { unmaskedValue: string }) =>
      preparePhoneInput(chunk, current.unmaskedValue.length),
  });
  mask.resolve(before);
  mask.append(text, { input: true, raw: false });
  return mask.value;
}

/** What it shows after `text` is typed one key at a time. */
function typed(text: string): string {
  const mask = IMask.createMask({
    mask: PHONE_MASK,
    prepare: (chunk: string, current: { unmaskedValue: string }) =>
      preparePhoneInput(chunk, current.unmaskedValue.length),
  });
  for (const char of text) mask.append(char, { input: true });
  return mask.value;
}

describe('the mask with imask (the library the field uses)', () => {
  it.each([
    '8 912 345-67-89',
    '+7 912 345 67 89',
    '+7(912)-345-67-89',
    '+79123456789',
    '89123456789',
    '9123456789',
    '(912)3456789',
    '8(912)345-67-89',
  ])('pasting %j shows +7(912)-345-67-89', (text) => {
    expect(masked(text)).toBe('+7(912)-345-67-89');
    expect(phoneError(masked(text))).toBeNull();
  });

  it.each([
    ['9123456789', '+7(912)-345-67-89'],
    ['89123456789', '+7(912)-345-67-89'],
    ['+79123456789', '+7(912)-345-67-89'],
    ['912', '+7(912'],
  ])('typing %j key by key shows %j', (keys, shown) => {
    expect(typed(keys)).toBe(shown);
  });

  it.each([
    ['8 912 345', '+7(912)-345'],
    ['+7 912', '+7(912'],
    ['8', ''],
    ['+7(', '+7('],
    ['+7(912)-34', '+7(912)-34'],
  ])('a short paste %j into an empty field shows %j', (text, shown) => {
    expect(masked(text)).toBe(shown);
  });

  it('keeps a digit typed after the first ones, even a 7 or an 8', () => {
    expect(typed('9878')).toBe('+7(987)-8');
  });

  it('a short paste into a half-filled field goes on from where it was', () => {
    expect(masked('4567', '+7(912)-3')).toBe('+7(912)-345-67');
  });
});
