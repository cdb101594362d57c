import { FetchError } from 'ofetch';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Basket, BasketEntry, Product } from '../../../src/api/types';
import { basketApi as api, notices as notify, RASPBERRY } from '../basket-fakes';

// The store's own logic with the API calls under the test's control: which calls go out, in
// which order, and what the basket shows meanwhile. tests/stub/basket-store.test.ts runs the
// same store against the real stub.
vi.mock('../../../src/api/basket', () =>
  import('../basket-fakes').then((fakes) => fakes.basketApi),
);
vi.mock('../../../src/ui/notify', () => import('../basket-fakes').then((fakes) => fakes.notices));

const { amountOf, createBasketStore, lineCount } =
  await import('../../../src/features/basket/store');
type BasketStore = ReturnType<typeof createBasketStore>;
// Each test's basket is a fresh one.
let addToBasket: BasketStore['addToBasket'];
let basket: BasketStore['state'];
let basketSettled: BasketStore['basketSettled'];
let loadBasket: BasketStore['loadBasket'];
let refreshBasket: BasketStore['refreshBasket'];
let refreshTotal: BasketStore['refreshTotal'];
let removeLine: BasketStore['removeLine'];
let setAmount: BasketStore['setAmount'];
let takeOrderedLines: BasketStore['takeOrderedLines'];

const raspberry: Product = RASPBERRY;
const jam: Product = {
  ...raspberry,
  id: 43,
  name: 'Варенье',
  unit: 'шт',
  unit_step: null,
  price: 390,
  rest: 3,
};

interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}
/** The app has started: its first basket call answered with `lines`. */
async function startedUp(lines: Basket): Promise<void> {
  api.getBasket.mockResolvedValueOnce(lines);
  await loadBasket();
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** PUTs wait for the test to answer them, one by one. */
function pausedPuts() {
  const calls: { amount: number; answer: Deferred<BasketEntry> }[] = [];
  api.updateBasketAmount.mockImplementation((_id: number, amount: number) => {
    const answer = deferred<BasketEntry>();
    calls.push({ amount, answer });
    return answer.promise;
  });
  return calls;
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

function failure(status: number, body: unknown): FetchError {
  const error = new FetchError(`${status}`);
  Object.assign(error, { statusCode: status, status, data: body });
  return error;
}
const badRequest = (body: unknown) => failure(400, body);

beforeEach(() => {
  ({
    addToBasket,
    state: basket,
    basketSettled,
    loadBasket,
    refreshBasket,
    refreshTotal,
    removeLine,
    setAmount,
    takeOrderedLines,
  } = createBasketStore());
  api.getBasket.mockReset();
  api.getTotalPrice.mockResolvedValue(0);
  api.deleteBasketLine.mockResolvedValue(undefined);
  api.updateBasketAmount.mockImplementation((id: number, amount: number) =>
    Promise.resolve({ product: id === jam.id ? jam : raspberry, amount }),
  );
});
afterEach(() => vi.clearAllMocks());

describe('loading', () => {
  it('fetches the list, then the total', async () => {
    api.getBasket.mockResolvedValue({ '7': { product: raspberry, amount: 1.5 } });
    api.getTotalPrice.mockResolvedValue(1335);
    const done = loadBasket();
    expect(basket.loading).toBe(true);
    await done;
    expect(basket.loading).toBe(false);
    expect(basket.loaded).toBe(true);
    expect(amountOf(basket.lines, 7)).toBe(1.5);
    expect(basket.amount_sum).toBe(1335);
    expect(api.getTotalPrice).toHaveBeenCalledTimes(1);
  });

  it('keeps the last lines and says so when the load fails', async () => {
    basket.lines = { '7': { product: raspberry, amount: 1 } };
    api.getBasket.mockRejectedValue(new Error('offline'));
    await loadBasket();
    expect(basket.loadFailure).toBe('unreachable');
    expect(basket.loading).toBe(false);
    expect(amountOf(basket.lines, 7)).toBe(1);
  });

  it('a list read before a change on its way landed does not undo the change', async () => {
    const puts = pausedPuts();
    const list = deferred<Record<string, BasketEntry>>();
    api.getBasket.mockReturnValue(list.promise);
    const loading = loadBasket();
    void setAmount(raspberry, 2);
    await flush();
    list.resolve({ '7': { product: raspberry, amount: 1 } });
    await loading;
    expect(amountOf(basket.lines, 7)).toBe(2);
    puts[0]!.answer.resolve({ product: raspberry, amount: 2 });
    await basketSettled();
    expect(amountOf(basket.lines, 7)).toBe(2);
  });
});

describe('the badge', () => {
  it('counts lines above 0, not amounts', () => {
    expect(
      lineCount({
        '1': { product: raspberry, amount: 3 },
        '2': { product: jam, amount: 0.5 },
        '3': { product: jam, amount: 0 },
      }),
    ).toBe(2);
    expect(lineCount({})).toBe(0);
  });
});

describe('setting an amount', () => {
  it('shows at once, PUTs, takes the server entry and refetches the total', async () => {
    api.getTotalPrice.mockResolvedValue(1335);
    const done = setAmount(raspberry, 1.5);
    expect(amountOf(basket.lines, 7)).toBe(1.5);
    expect(basket.lineLoading['7']).toBe(true);
    await done;
    expect(api.updateBasketAmount).toHaveBeenCalledWith(7, 1.5);
    expect(basket.lines['7']).toEqual({ product: raspberry, amount: 1.5 });
    expect(basket.amount_sum).toBe(1335);
    expect(basket.lineLoading['7']).toBeUndefined();
  });

  it('once the server answers, the line is what it says, not what was asked', async () => {
    const puts = pausedPuts();
    const done = setAmount(jam, 3);
    expect(amountOf(basket.lines, 43)).toBe(3);
    await flush();
    // Another shopper took the last jars meanwhile: the server keeps 2.
    puts[0]!.answer.resolve({ product: { ...jam, rest: 2 }, amount: 2 });
    await done;
    expect(basket.lines['43']).toEqual({ product: { ...jam, rest: 2 }, amount: 2 });
  });

  it('makes the amount valid first: below 0 is 0, above the maximum the maximum, no float noise', async () => {
    await setAmount(jam, 7);
    expect(api.updateBasketAmount).toHaveBeenLastCalledWith(43, 3);
    await setAmount(raspberry, 0.1 + 0.2);
    expect(api.updateBasketAmount).toHaveBeenLastCalledWith(7, 0.3);
    await setAmount(raspberry, -1);
    expect(api.updateBasketAmount).toHaveBeenLastCalledWith(7, 0);
    expect(basket.lines['7']).toBeUndefined();
  });

  it('a line takes one change at a time: another one while its call is on its way is not sent', async () => {
    const puts = pausedPuts();
    basket.lines = { '43': { product: jam, amount: 1 } };
    const first = setAmount(jam, 2);
    const second = setAmount(jam, 3);
    const removal = removeLine(jam);
    await flush();
    expect(puts.map((call) => call.amount)).toEqual([2]);
    expect(api.deleteBasketLine).not.toHaveBeenCalled();
    expect(amountOf(basket.lines, 43)).toBe(2);
    expect(basket.lineLoading['43']).toBe(true);
    puts[0]!.answer.resolve({ product: jam, amount: 2 });
    await Promise.all([first, second, removal]);
    expect(amountOf(basket.lines, 43)).toBe(2);
    expect(basket.lineLoading['43']).toBeUndefined();
    // Answered, the line takes the next change.
    void setAmount(jam, 3);
    await flush();
    expect(puts.map((call) => call.amount)).toEqual([2, 3]);
  });

  it('two baskets share nothing: a line saving in one is not on its way in the other', async () => {
    const puts = pausedPuts();
    const other = createBasketStore();
    basket.lines = { '43': { product: jam, amount: 1 } };
    const first = setAmount(jam, 2);
    const second = other.setAmount(jam, 3);
    await flush();
    // Each basket sent its own change: neither waits on the other's call or counts its lines.
    expect(puts.map((call) => call.amount)).toEqual([2, 3]);
    expect(other.state.lineLoading['43']).toBe(true);
    expect(amountOf(other.state.lines, 43)).toBe(3);
    expect(amountOf(basket.lines, 43)).toBe(2);
    puts[0]!.answer.resolve({ product: jam, amount: 2 });
    puts[1]!.answer.resolve({ product: jam, amount: 3 });
    await Promise.all([first, second]);
    expect(basket.lineLoading['43']).toBeUndefined();
    expect(other.state.lineLoading['43']).toBeUndefined();
  });

  it('other lines change while one is saving', async () => {
    const puts = pausedPuts();
    void setAmount(jam, 1);
    void setAmount(raspberry, 0.5);
    await flush();
    expect(puts.map((call) => call.amount)).toEqual([1, 0.5]);
    expect(basket.lineLoading).toEqual({ '7': true, '43': true });
  });

  it('on failure the line returns to the server amount and a Russian message says so', async () => {
    basket.lines = { '7': { product: raspberry, amount: 1 } };
    api.updateBasketAmount.mockRejectedValue(new Error('offline'));
    const done = setAmount(raspberry, 1.5);
    expect(amountOf(basket.lines, 7)).toBe(1.5);
    await done;
    expect(amountOf(basket.lines, 7)).toBe(1);
    expect(notify.notifyError).toHaveBeenCalledWith(
      'Не удалось изменить количество «Малина»: сервер магазина не отвечает. Проверьте соединение и попробуйте ещё раз.',
    );
  });

  it('shows the server reason of a 400 and rolls back to what the server held', async () => {
    basket.lines = { '7': { product: raspberry, amount: 1 } };
    api.getBasket.mockResolvedValue({ '7': { product: raspberry, amount: 1 } });
    const puts = pausedPuts();
    void setAmount(raspberry, 2);
    await flush();
    expect(amountOf(basket.lines, 7)).toBe(2);
    puts[0]!.answer.reject(
      badRequest({ amount: ['Убедитесь, что значение меньше или равно 1.5.'] }),
    );
    await basketSettled();
    expect(amountOf(basket.lines, 7)).toBe(1);
    expect(notify.notifyError).toHaveBeenCalledWith(
      'Не удалось изменить количество «Малина»: Убедитесь, что значение меньше или равно 1.5.',
    );
  });

  it('a first add that fails leaves no line behind', async () => {
    api.updateBasketAmount.mockRejectedValue(new Error('offline'));
    await setAmount(jam, 1);
    expect(basket.lines['43']).toBeUndefined();
    expect(lineCount(basket.lines)).toBe(0);
  });
});

describe('removing a line', () => {
  it('DELETEs, removes the entry, marks the line loading meanwhile and refetches the total', async () => {
    basket.lines = { '7': { product: raspberry, amount: 1 }, '43': { product: jam, amount: 2 } };
    api.getTotalPrice.mockResolvedValue(780);
    const done = removeLine(raspberry);
    expect(basket.lines['7']).toBeUndefined();
    expect(basket.lineLoading['7']).toBe(true);
    await done;
    expect(api.deleteBasketLine).toHaveBeenCalledWith(7);
    expect(api.updateBasketAmount).not.toHaveBeenCalled();
    expect(basket.lineLoading['7']).toBeUndefined();
    expect(basket.amount_sum).toBe(780);
  });

  it('puts the line back when the call fails', async () => {
    basket.lines = { '7': { product: raspberry, amount: 1 } };
    api.deleteBasketLine.mockRejectedValue(new Error('offline'));
    await removeLine(raspberry);
    expect(amountOf(basket.lines, 7)).toBe(1);
    expect(notify.notifyError).toHaveBeenCalledWith(
      'Не удалось убрать из корзины «Малина»: сервер магазина не отвечает. Проверьте соединение и попробуйте ещё раз.',
    );
  });
});

describe('the total', () => {
  it('an older answer that arrives last does not overwrite a newer one', async () => {
    const first = deferred<number>();
    const second = deferred<number>();
    api.getTotalPrice.mockReturnValueOnce(first.promise).mockReturnValueOnce(second.promise);
    const a = refreshTotal();
    const b = refreshTotal();
    second.resolve(890);
    await b;
    first.resolve(445);
    await a;
    expect(basket.amount_sum).toBe(890);
  });
});

describe('a list on its way when a change lands', () => {
  it('a save that lands while the list is on its way is not undone by the older list', async () => {
    await startedUp({ '7': { product: raspberry, amount: 1 } });
    const list = deferred<Basket>();
    api.getBasket.mockReturnValue(list.promise);
    const loading = loadBasket();
    // The PUT is answered at once: it lands before the list, which was read before it.
    await setAmount(raspberry, 2);
    expect(amountOf(basket.lines, 7)).toBe(2);
    list.resolve({ '7': { product: raspberry, amount: 1 }, '43': { product: jam, amount: 2 } });
    await loading;
    expect(amountOf(basket.lines, 7)).toBe(2);
    // Lines nobody changed meanwhile come from the list.
    expect(amountOf(basket.lines, 43)).toBe(2);
  });

  it('a removal that lands while the list is on its way stays removed', async () => {
    await startedUp({ '43': { product: jam, amount: 2 } });
    const list = deferred<Basket>();
    api.getBasket.mockReturnValue(list.promise);
    const loading = loadBasket();
    await removeLine(jam);
    list.resolve({ '43': { product: jam, amount: 2 } });
    await loading;
    expect(basket.lines['43']).toBeUndefined();
  });

  it('a change waits for the app’s first basket call, which starts a newcomer’s session', async () => {
    const first = deferred<Basket>();
    api.getBasket.mockReturnValue(first.promise);
    const loading = refreshBasket();
    const saved = addToBasket(raspberry);
    // Shown at once, sent once the session is there.
    expect(amountOf(basket.lines, 7)).toBe(0.1);
    await flush();
    expect(api.updateBasketAmount).not.toHaveBeenCalled();
    first.resolve({});
    await Promise.all([loading, saved]);
    expect(api.updateBasketAmount).toHaveBeenCalledTimes(1);
    expect(amountOf(basket.lines, 7)).toBe(0.1);
  });

  it('a list asked for after a change landed is taken as it is', async () => {
    await setAmount(raspberry, 2);
    api.getBasket.mockResolvedValue({ '7': { product: raspberry, amount: 3 } });
    await loadBasket();
    expect(amountOf(basket.lines, 7)).toBe(3);
  });
});

describe('a change the server refuses (400, 404)', () => {
  it('re-reads the basket for the product as it is now; another line’s save on its way keeps its amount', async () => {
    basket.loaded = true;
    basket.lines = {
      '7': { product: raspberry, amount: 1 },
      '43': { product: jam, amount: 1 },
    };
    const jamPut = deferred<BasketEntry>();
    api.updateBasketAmount.mockImplementation((id: number) =>
      id === 43
        ? jamPut.promise
        : Promise.reject(badRequest({ amount: ['Убедитесь, что значение меньше или равно 1.'] })),
    );
    const fresh = { ...raspberry, rest: 1 };
    const list = deferred<Basket>();
    api.getBasket.mockReturnValue(list.promise);
    const jamDone = setAmount(jam, 2);
    const refused = setAmount(raspberry, 2);
    await vi.waitFor(() => expect(api.getBasket).toHaveBeenCalledTimes(1));
    // A refresh behind the lines: the other controls stay usable meanwhile.
    expect(basket.loading).toBe(false);
    list.resolve({ '7': { product: fresh, amount: 1 }, '43': { product: jam, amount: 1 } });
    await refused;
    expect(basket.lines['7']).toEqual({ product: fresh, amount: 1 });
    expect(basket.checkedProducts['7']).toEqual(fresh);
    // The list still says 1 for the jam, but its 2 is on its way.
    expect(amountOf(basket.lines, 43)).toBe(2);
    expect(basket.lineLoading['43']).toBe(true);
    jamPut.resolve({ product: jam, amount: 2 });
    await jamDone;
    expect(amountOf(basket.lines, 43)).toBe(2);
  });

  it('a 404 (the product went out of sale) re-reads it too', async () => {
    basket.loaded = true;
    basket.lines = { '7': { product: raspberry, amount: 1 } };
    api.updateBasketAmount.mockRejectedValue(failure(404, { detail: 'Страница не найдена.' }));
    const gone = { ...raspberry, available: false, rest: 0 };
    api.getBasket.mockResolvedValue({ '7': { product: gone, amount: 1 } });
    await setAmount(raspberry, 2);
    expect(basket.lines['7']?.product.available).toBe(false);
    expect(basket.checkedProducts['7']).toEqual(gone);
  });

  it('a failed connection is no refusal: the basket is not re-read', async () => {
    basket.loaded = true;
    basket.lines = { '7': { product: raspberry, amount: 1 } };
    api.updateBasketAmount.mockRejectedValue(new TypeError('fetch failed'));
    await setAmount(raspberry, 2);
    expect(api.getBasket).not.toHaveBeenCalled();
    expect(basket.checkedProducts['7']).toBeUndefined();
    expect(api.getTotalPrice).toHaveBeenCalledTimes(1);
  });
});

describe('waiting for the changes before an order', () => {
  it('basketSettled says true when every change landed', async () => {
    void setAmount(raspberry, 1);
    void removeLine(jam);
    expect(await basketSettled()).toBe(true);
  });

  it('basketSettled says false when a change on its way failed, even if another landed', async () => {
    const puts = pausedPuts();
    void setAmount(jam, 1);
    void setAmount(raspberry, 1);
    await flush();
    const settled = basketSettled();
    puts[0]!.answer.resolve({ product: jam, amount: 1 });
    puts[1]!.answer.reject(new TypeError('fetch failed'));
    expect(await settled).toBe(false);
    // Nothing on its way: nothing failed.
    expect(await basketSettled()).toBe(true);
  });

  it('a failed removal counts too', async () => {
    basket.lines = { '43': { product: jam, amount: 1 } };
    api.deleteBasketLine.mockRejectedValue(new TypeError('fetch failed'));
    void removeLine(jam);
    expect(await basketSettled()).toBe(false);
  });
});

describe('an order placed', () => {
  const currant: Product = { ...raspberry, id: 13, name: 'Смородина', available: false };
  const order = { items: [{ product: { id: 7 } }, { product: { id: 43 } }] };

  function filled() {
    basket.loaded = true;
    basket.lines = {
      '7': { product: raspberry, amount: 1.5 },
      '43': { product: jam, amount: 2 },
      '13': { product: currant, amount: 1 },
    };
    basket.amount_sum = 2115;
  }

  it('takes the ordered lines out and the total to what is left, even when the reload fails', async () => {
    filled();
    api.getBasket.mockRejectedValue(new TypeError('fetch failed'));
    await takeOrderedLines(order);
    expect(api.getBasket).toHaveBeenCalledTimes(1);
    expect(Object.keys(basket.lines)).toEqual(['13']);
    // The line left is out of sale: nothing to pay, so no price button.
    expect(basket.amount_sum).toBe(0);
    expect(lineCount(basket.lines)).toBe(1);
  });

  it('the total left counts the available lines the order did not take', async () => {
    filled();
    api.getBasket.mockRejectedValue(new TypeError('fetch failed'));
    await takeOrderedLines({ items: [{ product: { id: 7 } }] });
    expect(basket.amount_sum).toBe(780);
  });

  it('a total asked for before the order does not bring the old sum back', async () => {
    filled();
    const oldTotal = deferred<number>();
    api.getTotalPrice.mockReturnValueOnce(oldTotal.promise);
    const refreshing = refreshTotal();
    api.getBasket.mockRejectedValue(new TypeError('fetch failed'));
    await takeOrderedLines(order);
    oldTotal.resolve(2115);
    await refreshing;
    expect(basket.amount_sum).toBe(0);
  });

  it('an answer without items: the lines that can be paid for were ordered', async () => {
    filled();
    api.getBasket.mockRejectedValue(new TypeError('fetch failed'));
    await takeOrderedLines({});
    expect(Object.keys(basket.lines)).toEqual(['13']);
    expect(basket.amount_sum).toBe(0);
  });

  it('then reloads the basket as the server holds it', async () => {
    filled();
    api.getBasket.mockResolvedValue({ '13': { product: currant, amount: 1 } });
    api.getTotalPrice.mockResolvedValue(0);
    await takeOrderedLines(order);
    expect(Object.keys(basket.lines)).toEqual(['13']);
    expect(api.getTotalPrice).toHaveBeenCalled();
  });
});
