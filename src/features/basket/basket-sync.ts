// The basket kept in step with the server: loads, each line's change and its save, the total, an
// order taking its lines. Answers can overtake each other and a list can be older than a change
// made here; the counters that order them belong to one basket, in its closure.
import { failureCase } from '../../api/call-failure';
import { errorStatus } from '../../api/http';
import { deleteBasketLine, getBasket, getTotalPrice, updateBasketAmount } from '../../api/basket';
import type { Basket, BasketEntry, Product } from '../../api/types';
import { clampAmount, stepOf } from '../../lib/amount';
import { notifyError } from '../../ui/notify';
import { changeFailedText } from './basket-form';
import { amountOf, type BasketState, isOrderable, orderableTotal } from './basket-state';
import type { LoadNotice } from './load-notice';

/** A change of one line: a new amount (PUT; 0 takes the line out) or its removal (DELETE). */
type Change = { kind: 'amount'; amount: number } | { kind: 'delete' };

function copy(entry: BasketEntry | undefined): BasketEntry | undefined {
  return entry ? { product: { ...entry.product }, amount: entry.amount } : undefined;
}

async function send(product: Product, change: Change): Promise<BasketEntry | undefined> {
  if (change.kind === 'delete') {
    await deleteBasketLine(product.id);
    return undefined;
  }
  const entry = await updateBasketAmount(product.id, change.amount);
  return entry.amount > 0 ? entry : undefined;
}

/** The server refused the change itself (stock fell, out of sale), not the connection. */
function isRefusal(error: unknown): boolean {
  const status = errorStatus(error);
  return status === 400 || status === 404;
}

/** What changes the basket `state` through the server; `notice` says when it did not load. */
export function createBasketSync(state: BasketState, notice: LoadNotice) {
  /**
   * Each line's call on its way, by product id: it resolves with true when the change landed,
   * false when it failed. A line has at most one: its controls wait until it has answered.
   */
  const saving = new Map<string, Promise<boolean>>();
  let totalRequest = 0;
  let loadRequest = 0;
  /**
   * When each line last changed here (a change shown, a save's answer, a placed order), on a
   * counter that only goes up. A basket list asked for before that moment may not undo it.
   */
  let clock = 0;
  const changedAt = new Map<string, number>();
  /** Lines the server refused a change of, whose product the next list brings as it is now. */
  const refused = new Set<string>();
  /**
   * The answer to the app's first basket call. A page a shared cache may keep comes without a
   * session: that answer starts it (the session and CSRF cookies). A change sent before it would
   * go without them, and be refused, or start a second session whose cookie the first answer then
   * replaces: changes wait for it.
   */
  let firstAnswer: Promise<void> | undefined;

  function touch(id: string): void {
    clock += 1;
    changedAt.set(id, clock);
  }

  /**
   * Resolves once every basket change on its way has reached the server or failed: true when all
   * of them landed, false when one failed (its line is back at the server's amount, so the basket
   * is not what the shopper last saw).
   */
  async function basketSettled(): Promise<boolean> {
    let landed = true;
    while (saving.size > 0) {
      const results = await Promise.all(saving.values());
      if (results.includes(false)) landed = false;
    }
    return landed;
  }

  async function refreshTotal(): Promise<void> {
    // Answers can overtake each other; only the newest request may set the total.
    const request = ++totalRequest;
    try {
      const total = await getTotalPrice();
      if (request !== totalRequest) return;
      state.amount_sum = total;
      state.totalFailed = false;
    } catch {
      // The price button keeps the last total; the basket and checkout say it may be out of date
      // and offer `Повторить`. The next basket change fetches it again too.
      if (request === totalRequest) state.totalFailed = true;
    }
  }

  /**
   * Takes a fetched list as the basket. The list was read when the request started: a line
   * changed here since (a save that landed meanwhile, a placed order) keeps its own state, and a
   * line still saving keeps the amount on its way, with the product as the list has it.
   */
  function applyList(lines: Basket, startedAt: number): void {
    for (const [id, at] of changedAt) {
      if (at <= startedAt) {
        changedAt.delete(id);
        continue;
      }
      const own = state.lines[id];
      if (own) lines[id] = own;
      else delete lines[id];
    }
    for (const id of saving.keys()) {
      const own = state.lines[id];
      if (own) lines[id] = { product: lines[id]?.product ?? own.product, amount: own.amount };
      else delete lines[id];
    }
    for (const id of new Set([...refused, ...Object.keys(state.checkedProducts)])) {
      const line = lines[id];
      if (line) state.checkedProducts[id] = line.product;
    }
    refused.clear();
    state.lines = lines;
  }

  /**
   * Fetches the basket list, then its total; false when the list did not come. `quiet`: a
   * refresh the shopper did not ask for, done behind the lines: their controls stay usable, and
   * a failure adds no notice.
   */
  async function fetchBasket(quiet: boolean): Promise<boolean> {
    const request = ++loadRequest;
    const startedAt = clock;
    if (!quiet) state.loading = true;
    try {
      const listed = getBasket();
      firstAnswer ??= listed.then(
        () => undefined,
        () => undefined,
      );
      const lines = await listed;
      // A newer request is under way; it sets the basket.
      if (request !== loadRequest) return true;
      applyList(lines, startedAt);
      state.loadFailure = null;
      state.loaded = true;
      notice.hide();
      // The lines are usable now; their controls need not wait for the total as well.
      state.loading = false;
      await refreshTotal();
      return true;
    } catch (error) {
      // A quiet refresh fails silently only when a basket is already shown.
      if (request === loadRequest && (!quiet || !state.loaded)) {
        state.loadFailure = failureCase(error);
        notice.report();
      }
      return false;
    } finally {
      if (request === loadRequest) state.loading = false;
    }
  }

  /** Fetches the basket list, then its total. */
  async function loadBasket(): Promise<void> {
    await fetchBasket(false);
  }

  /**
   * Fetches them again behind a basket already shown (the one the server rendered): the controls
   * stay usable meanwhile, so a tap right after the page wakes up is never lost.
   */
  async function refreshBasket(): Promise<void> {
    await fetchBasket(true);
  }

  /**
   * An order was placed: its lines leave the basket at once, and the total is what is left, so
   * the price button and the menu stop showing ordered goods even if the reload that follows
   * fails (a shopper must not be invited to order them twice). Lines the order did not take (out
   * of sale) stay. Then the basket is fetched again.
   */
  async function takeOrderedLines(order: {
    items?: readonly { product: Pick<Product, 'id'> }[];
  }): Promise<void> {
    // The spec leaves order_commit's answer open: without its items, the order took what an
    // order takes, the lines that can be paid for.
    const ids = Array.isArray(order.items)
      ? order.items.map((item) => String(item.product.id))
      : Object.entries(state.lines)
          .filter(([, line]) => isOrderable(line))
          .map(([id]) => id);
    for (const id of ids) {
      delete state.lines[id];
      touch(id);
    }
    // A total asked for before the order must not bring the old sum back.
    totalRequest += 1;
    state.amount_sum = orderableTotal(state.lines);
    state.totalFailed = false;
    await loadBasket();
  }

  /**
   * Sends the change and makes the line what the server answered; on failure, what the server
   * held before (`before`), with a message. Resolves with true when the change landed.
   */
  async function save(
    id: string,
    product: Product,
    change: Change,
    before: BasketEntry | undefined,
  ): Promise<boolean> {
    let after = before;
    let landed = true;
    let wasRefused = false;
    try {
      await firstAnswer;
      after = await send(product, change);
    } catch (error) {
      landed = false;
      wasRefused = isRefusal(error);
      notifyError(changeFailedText(product, change.kind === 'delete', error));
    }
    if (after) state.lines[id] = after;
    else delete state.lines[id];
    if (state.checkedProducts[id] && after) state.checkedProducts[id] = after.product;
    touch(id);
    saving.delete(id);
    delete state.lineLoading[id];
    if (wasRefused) {
      // The product data shown is out of date (its rest, its availability): fetch the basket for
      // the server's, or plus stays enabled and fails again. Other lines still saving keep their
      // amounts on the way (see `applyList`).
      refused.add(id);
      if (!(await fetchBasket(true))) await refreshTotal();
    } else {
      await refreshTotal();
    }
    return landed;
  }

  /**
   * Changes a line: the change shows at once, and the line's controls wait until the server has
   * answered. A line takes one change at a time: while its call is on its way, another change of
   * it is not sent (its controls are disabled then, so only code could ask), and two calls for
   * one line never race on the server.
   */
  function changeLine(product: Product, change: Change): Promise<void> {
    const id = String(product.id);
    const onItsWay = saving.get(id);
    if (onItsWay) return onItsWay.then(() => undefined);
    const before = copy(state.lines[id]);
    if (change.kind === 'amount' && change.amount > 0) {
      state.lines[id] = { product: before?.product ?? product, amount: change.amount };
    } else {
      delete state.lines[id];
    }
    state.lineLoading[id] = true;
    touch(id);
    const run = save(id, product, change, before);
    saving.set(id, run);
    return run.then(() => undefined);
  }

  /**
   * Sets a line's amount (made valid first: below 0 is 0, above the maximum is the maximum). The
   * change shows at once; if the call fails, the line returns to the server's amount and a
   * message says so. 0 removes the line.
   */
  function setAmount(product: Product, amount: number): Promise<void> {
    return changeLine(product, { kind: 'amount', amount: clampAmount(product, amount) });
  }

  /**
   * `В корзину`: one step. When the basket list never arrived (the start-up load failed), it is
   * fetched first: the product may already be in the basket, and a blind PUT would replace the
   * amount the shopper put there before; then the control just shows that amount. If the list
   * still does not come, nothing is sent and the failure notice with `Повторить` shows again.
   */
  async function addToBasket(product: Product): Promise<void> {
    if (!state.loaded && state.loadFailure) {
      await loadBasket();
      if (!state.loaded || amountOf(state.lines, product.id) > 0) return;
    }
    await setAmount(product, stepOf(product));
  }

  /** Removes the line (DELETE); its controls wait until the server has answered. */
  function removeLine(product: Product): Promise<void> {
    return changeLine(product, { kind: 'delete' });
  }

  return {
    basketSettled,
    refreshTotal,
    loadBasket,
    refreshBasket,
    takeOrderedLines,
    setAmount,
    addToBasket,
    removeLine,
  };
}
