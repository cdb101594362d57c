// The checkout's values as a form posted without the app brings them, judged by the app's own
// rules (issue 19): the shop's server and the app read the same fields the same way.
import { describe, expect, it } from 'vitest';
import {
  commitErrors,
  commitFieldsOf,
  commitValuesFrom,
  DELIVERY_REQUIRED,
  POLICY_REQUIRED,
} from '../../../src/features/checkout/commit-form';
import { normalizePhone, PHONE_INVALID, PHONE_REQUIRED } from '../../../src/lib/phone';

describe('a phone typed without the mask', () => {
  it.each([
    ['+7(912)345-67-89', '+7(912)-345-67-89'],
    ['89123456789', '+7(912)-345-67-89'],
    ['9123456789', '+7(912)-345-67-89'],
    ['8 912 345 67 89', '+7(912)-345-67-89'],
    [' 8912345 ', '8912345'],
    ['', ''],
  ])('%s is %s', (typed, expected) => {
    expect(normalizePhone(typed)).toBe(expected);
  });
});

describe('the posted checkout form', () => {
  it('reads the fields as a browser posts them: a box is ticked when it is sent', () => {
    expect(
      commitValuesFrom({
        phone: '89123456789',
        comment: 'Позвоните',
        delivery: '2',
        policy_accept: 'on',
      }),
    ).toEqual({
      phone: '+7(912)-345-67-89',
      comment: 'Позвоните',
      delivery: '2',
      policy_accept: true,
      send_accept: false,
    });
  });

  it('takes nothing it does not know: a delivery that is neither 1 nor 2, a field that is no text', () => {
    expect(commitValuesFrom({ delivery: '3', phone: ['x'] })).toMatchObject({
      phone: '',
      delivery: '',
    });
  });

  it("gives each failing field the app's message", () => {
    expect(commitErrors(commitValuesFrom({}))).toEqual({
      phone: PHONE_REQUIRED,
      delivery: DELIVERY_REQUIRED,
      policy_accept: POLICY_REQUIRED,
    });
    expect(
      commitErrors(
        commitValuesFrom({
          phone: '8912',
          comment: 'x'.repeat(151),
          delivery: '1',
          policy_accept: 'on',
        }),
      ),
    ).toEqual({ phone: PHONE_INVALID, comment: 'Максимальная длина 150' });
  });

  it('writes the values back as the fields hold them, for the form shown again', () => {
    const values = commitValuesFrom({ phone: '9123456789', delivery: '1', send_accept: 'on' });
    expect(commitValuesFrom(commitFieldsOf(values))).toEqual(values);
    expect(commitFieldsOf(values)).not.toHaveProperty('policy_accept');
  });
});
