// The rule set both sides use for a basket control's form (issue 19): the shop's server when the
// form is posted without the app, the app's onSubmit after hydration.
import { describe, expect, it } from 'vitest';
import { FetchError } from 'ofetch';
import type { Product } from '../../../src/api/types';
import { RASPBERRY } from '../basket-fakes';
import {
  type BasketChange,
  changeFailedText,
  isBasketChange,
  requestedAmount,
} from '../../../src/features/basket/basket-form';

const product = (overrides: Partial<Product> = {}): Product => ({ ...RASPBERRY, ...overrides });
const pieces = product({ id: 4, name: 'Клубника', unit: 'шт', unit_step: null, rest: 3 });

describe('the amount a basket form asks for', () => {
  it.each<[string, BasketChange, Product, number, string, number | null | undefined]>([
    ['add: one step of kilograms', 'add', product(), 0, '', 0.1],
    ['add: one piece', 'add', pieces, 0, '', 1],
    ['add over a line a newer page shows changes nothing', 'add', product(), 3, '', undefined],
    ['plus: one step more', 'plus', product(), 0.3, '', 0.4],
    ['plus at the stock stays there', 'plus', pieces, 3, '', 3],
    ['plus at 10 stays at 10 (spec §5)', 'plus', product(), 10, '', 10],
    ['minus: one step less', 'minus', product(), 0.3, '', 0.2],
    ['minus never below 0', 'minus', pieces, 1, '', 0],
    ['delete takes the line out', 'delete', pieces, 2, '', null],
    ['set: the typed amount, with a comma', 'set', product(), 1, '2,5', 2.5],
    ['set: above the maximum is the maximum', 'set', pieces, 1, '50', 3],
    ['set: below 0 is 0', 'set', pieces, 1, '-2', 0],
    ['set: onto the step grid', 'set', product({ unit_step: 0.5 }), 1, '1,4', 1.5],
    ['set: no number changes nothing', 'set', pieces, 2, 'abc', undefined],
    ['set: as the field reads it, decimals cut', 'set', product(), 1, '1,55', 1.5],
    ['set: pieces take no decimals', 'set', pieces, 1, '2,7', 2],
    ['set: a unit or a space is no part of it', 'set', product(), 1, '2 кг', 2],
  ])('%s', (_name, change, item, current, typed, expected) => {
    expect(requestedAmount(change, item, current, typed)).toBe(expected);
  });

  it('knows its five buttons and nothing else', () => {
    for (const change of ['add', 'plus', 'minus', 'delete', 'set']) {
      expect(isBasketChange(change)).toBe(true);
    }
    for (const change of ['', 'ADD', 'remove', undefined, ['add']]) {
      expect(isBasketChange(change)).toBe(false);
    }
  });
});

describe('the message of a change that did not land', () => {
  const refused = new FetchError('400');
  Object.assign(refused, { statusCode: 400, data: { amount: ['Недостаточно товара'] } });

  it("names the product and gives the server's reason", () => {
    expect(changeFailedText(product(), false, refused)).toBe(
      'Не удалось изменить количество «Малина»: Недостаточно товара',
    );
  });

  it('says why when there is no reason: no answer, an error, or an answer it cannot read', () => {
    expect(changeFailedText(product(), true, new Error('offline'))).toBe(
      'Не удалось убрать из корзины «Малина»: сервер магазина не отвечает. Проверьте соединение и попробуйте ещё раз.',
    );
    const serverError = Object.assign(new FetchError('500'), { statusCode: 500, data: {} });
    expect(changeFailedText(product(), false, serverError)).toBe(
      'Не удалось изменить количество «Малина»: сервер магазина ответил ошибкой. Попробуйте ещё раз чуть позже.',
    );
    const odd = Object.assign(new Error('x'), { name: 'UnexpectedAnswerError' });
    expect(changeFailedText(product(), false, odd)).toBe(
      'Не удалось изменить количество «Малина»: сервер магазина прислал ответ, который не удалось прочитать. Попробуйте ещё раз чуть позже.',
    );
  });
});
