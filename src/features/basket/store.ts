import { proxy, type Snapshot, snapshot, useSnapshot } from 'valtio';
import { errorStatus, fieldErrors } from '../../api/http';
import { deleteBasketLine, getBasket, getTotalPrice, updateBasketAmount } from '../../api/basket';
import type { Basket, BasketEntry, Product } from '../../api/types';
import { clampAmount, lineSum, stepOf } from '../../lib/amount';
import { hasPrice } from '../../lib/product-text';
import { roundTo } from '../../lib/round';
import { hideRetryNotice, notifyError, showRetryNotice } from '../../ui/notify';
import { useHydrated } from '../../ui/useHydrated';

// The basket (spec §3, §4): lines keyed by product id, the total (amount_sum) fetched separately.
export interface BasketState {
  lines: Basket;
  amount_sum: number;
  /** The whole basket is (re)loading: every control waits. */
  loading: boolean;
  /** Product ids whose line is being removed: that line's controls wait. */
  lineRemoving: Record<string, boolean>;
  /**
   * Product ids whose new amount is still on its way to the server. Controls stay usable:
   * further clicks are queued, so none is lost (see `syncLine`).
   */
  lineSaving: Record<string, boolean>;
  /** The last load failed; the lines shown are the last known ones. */
  loadFailed: boolean;
  loaded: boolean;
  /** The last total_price call failed: amount_sum is the last known total, maybe out of date. */
  totalFailed: boolean;
  /**
   * Products as the server showed them after it refused a change of their line (400/404: the
   * stock fell, the product went out of sale). Newer than what a page loaded before, so the
   * controls use them: plus stops at the new maximum instead of failing again.
   */
  checkedProducts: Record<string, Product>;
}

function initialState(): BasketState {
  return {
    lines: {},
    amount_sum: 0,
    loading: false,
    lineRemoving: {},
    lineSaving: {},
    loadFailed: false,
    loaded: false,
    totalFailed: false,
    checkedProducts: {},
  };
}

export const basket = proxy<BasketState>(initialState());

/** The basket before the browser has asked for it: what the server renders. */
const UNKNOWN: Snapshot<BasketState> = snapshot(proxy(initialState()));

/**
 * The basket for rendering. It is the visitor's, so the server never has it: until hydration is
 * over, every part shows it as the server did (not yet known).
 */
export function useBasket(): Snapshot<BasketState> {
  const snap = useSnapshot(basket);
  return useHydrated() ? snap : UNKNOWN;
}

/**
 * Per line: what the shopper wants it to be, what the server last confirmed, and the running
 * sync. Only one call per line is in flight at a time, and it always carries the latest wish,
 * so ten fast clicks on plus end at +10 on the server in as few calls as the network allows.
 */
type Wish = { kind: 'amount'; amount: number } | { kind: 'delete' };
interface LineSync {
  product: Product;
  wish: Wish;
  /** The server's line as last confirmed; undefined when it has none. */
  confirmed: BasketEntry | undefined;
  /** Resolves with true once the server holds the latest wish, false when a call failed. */
  run: Promise<boolean>;
}
const syncs = new Map<string, LineSync>();
let totalRequest = 0;
let loadRequest = 0;

/**
 * When each line last changed here (a queued wish, a save's answer, a placed order), on a
 * counter that only goes up. A basket list asked for before that moment may not undo it.
 */
let clock = 0;
const changedAt = new Map<string, number>();
/** Lines the server refused a change of, whose product the next list brings as it is now. */
const refused = new Set<string>();
function touch(id: string): void {
  clock += 1;
  changedAt.set(id, clock);
}

export function resetBasket(): void {
  syncs.clear();
  changedAt.clear();
  refused.clear();
  Object.assign(basket, initialState());
}

/** The cart badge counts lines with an amount above 0, not the sum of amounts. */
export function lineCount(lines: Basket): number {
  return Object.values(lines).filter((line) => line.amount > 0).length;
}

/** Lines an order would take: available, priced, with an amount above 0. */
export function orderableLineCount(lines: Basket): number {
  return Object.values(lines).filter(isOrderable).length;
}

export function amountOf(lines: Basket, productId: number): number {
  return lines[String(productId)]?.amount ?? 0;
}

/**
 * Resolves once every queued basket change has reached the server or failed: true when all of
 * them landed, false when one failed (its line is back at the server's amount, so the basket
 * is not what the shopper last saw).
 */
export async function basketSettled(): Promise<boolean> {
  let landed = true;
  while (syncs.size > 0) {
    const results = await Promise.all([...syncs.values()].map((sync) => sync.run));
    if (results.includes(false)) landed = false;
  }
  return landed;
}

export async function refreshTotal(): Promise<void> {
  // Answers can overtake each other; only the newest request may set the total.
  const request = ++totalRequest;
  try {
    const total = await getTotalPrice();
    if (request !== totalRequest) return;
    basket.amount_sum = total;
    basket.totalFailed = false;
  } catch {
    // The price button keeps the last total; the basket and checkout say it may be out of date
    // and offer `Повторить`. The next basket change fetches it again too.
    if (request === totalRequest) basket.totalFailed = true;
  }
}

const LOAD_NOTICE = 'basket-load-failed';
export const LOAD_FAILED_TEXT =
  'Не удалось загрузить корзину. Проверьте соединение и попробуйте ещё раз.';
/**
 * Mounted pages that show a basket that never loaded as their own error state with `Повторить`
 * (the basket and checkout pages).
 */
let ownErrorViews = 0;

/**
 * The basket failed to load: a notice with `Повторить`, so a shopper is never left with a basket
 * that silently is not there. A page with its own error state needs none; a basket that loaded
 * before and failed to refresh is shown as last known, so the notice is the only sign of it.
 */
function reportLoadFailure(): void {
  if (ownErrorViews > 0 && !basket.loaded) return;
  showRetryNotice(LOAD_NOTICE, LOAD_FAILED_TEXT, () => void loadBasket());
}

/**
 * For pages that show a failed basket load themselves (call it in an effect; it returns the
 * cleanup). Leaving such a page with the basket still not loaded brings the notice back.
 */
export function claimLoadFailure(): () => void {
  ownErrorViews += 1;
  if (!basket.loaded) hideRetryNotice(LOAD_NOTICE);
  return () => {
    ownErrorViews -= 1;
    if (basket.loadFailed && !basket.loaded && !basket.loading) reportLoadFailure();
  };
}

/**
 * Takes a fetched list as the basket. The list was read when the request started: a line
 * changed here since (a save that landed meanwhile, a placed order) keeps its own state, and a
 * change still on its way shows its wish.
 */
function applyList(lines: Basket, startedAt: number): void {
  for (const [id, at] of changedAt) {
    if (at <= startedAt) {
      changedAt.delete(id);
      continue;
    }
    const own = basket.lines[id];
    if (own) lines[id] = own;
    else delete lines[id];
  }
  for (const [id, sync] of syncs) showWish(lines, id, sync);
  for (const id of new Set([...refused, ...Object.keys(basket.checkedProducts)])) {
    const line = lines[id];
    if (line) basket.checkedProducts[id] = line.product;
  }
  refused.clear();
  basket.lines = lines;
}

/**
 * Fetches the basket list, then its total; false when the list did not come. `quiet`: a
 * refresh the shopper did not ask for, done behind the lines: their controls stay usable, and
 * a failure adds no notice.
 */
async function fetchBasket(quiet: boolean): Promise<boolean> {
  const request = ++loadRequest;
  const startedAt = clock;
  if (!quiet) basket.loading = true;
  try {
    const lines = await getBasket();
    // A newer request is under way; it sets the basket.
    if (request !== loadRequest) return true;
    applyList(lines, startedAt);
    basket.loadFailed = false;
    basket.loaded = true;
    hideRetryNotice(LOAD_NOTICE);
    // The lines are usable now; their controls need not wait for the total as well.
    basket.loading = false;
    await refreshTotal();
    return true;
  } catch {
    // A quiet refresh fails silently only when a basket is already shown.
    if (request === loadRequest && (!quiet || !basket.loaded)) {
      basket.loadFailed = true;
      reportLoadFailure();
    }
    return false;
  } finally {
    if (request === loadRequest) basket.loading = false;
  }
}

/** Fetches the basket list, then its total. */
export async function loadBasket(): Promise<void> {
  await fetchBasket(false);
}

/**
 * An order was placed: its lines leave the basket at once, and the total is what is left, so the
 * price button and the menu stop showing ordered goods even if the reload that follows fails
 * (a shopper must not be invited to order them twice). Lines the order did not take (out of
 * sale) stay. Then the basket is fetched again.
 */
export async function takeOrderedLines(order: {
  items?: readonly { product: Pick<Product, 'id'> }[];
}): Promise<void> {
  // The spec leaves order_commit's answer open: without its items, the order took what an
  // order takes, the lines that can be paid for.
  const ids = Array.isArray(order.items)
    ? order.items.map((item) => String(item.product.id))
    : Object.entries(basket.lines)
        .filter(([, line]) => isOrderable(line))
        .map(([id]) => id);
  for (const id of ids) {
    delete basket.lines[id];
    touch(id);
  }
  // A total asked for before the order must not bring the old sum back.
  totalRequest += 1;
  basket.amount_sum = orderableTotal(basket.lines);
  basket.totalFailed = false;
  await loadBasket();
}

function isOrderable({ product, amount }: BasketEntry): boolean {
  return product.available && hasPrice(product) && amount > 0;
}

/** amount_sum as the server counts it: the available, priced lines. */
function orderableTotal(lines: Basket): number {
  const sum = Object.values(lines)
    .filter(isOrderable)
    .reduce((total, { product, amount }) => total + lineSum(amount, product.price ?? 0), 0);
  return roundTo(sum, 2);
}

function copy(entry: BasketEntry | undefined): BasketEntry | undefined {
  return entry ? { product: { ...entry.product }, amount: entry.amount } : undefined;
}

function showWish(lines: Basket, id: string, sync: LineSync): void {
  if (sync.wish.kind === 'amount' && sync.wish.amount > 0) {
    lines[id] = { product: lines[id]?.product ?? sync.product, amount: sync.wish.amount };
  } else {
    delete lines[id];
  }
}

function sameWish(a: Wish, b: Wish): boolean {
  return a.kind === b.kind && (a.kind === 'delete' || a.amount === (b as typeof a).amount);
}

function failureMessage(product: Product, wish: Wish, error: unknown): string {
  const reason = fieldErrors(error).amount?.[0];
  const what =
    wish.kind === 'delete'
      ? `Не удалось убрать из корзины «${product.name}»`
      : `Не удалось изменить количество «${product.name}»`;
  return reason ? `${what}: ${reason}` : `${what}. Попробуйте ещё раз.`;
}

async function send(product: Product, wish: Wish): Promise<BasketEntry | undefined> {
  if (wish.kind === 'delete') {
    await deleteBasketLine(product.id);
    return undefined;
  }
  const entry = await updateBasketAmount(product.id, wish.amount);
  return entry.amount > 0 ? entry : undefined;
}

/** The server refused the change itself (stock fell, out of sale), not the connection. */
function isRefusal(error: unknown): boolean {
  const status = errorStatus(error);
  return status === 400 || status === 404;
}

/**
 * Sends the line's latest wish until the server holds it; on failure shows the server's line.
 * Resolves with true when the wish landed.
 */
async function syncLine(id: string, sync: LineSync): Promise<boolean> {
  // Let the clicks of this same moment join the first call.
  await Promise.resolve();
  let sent: Wish | undefined;
  let landed = true;
  let wasRefused = false;
  try {
    while (!sent || !sameWish(sent, sync.wish)) {
      const wish = sync.wish;
      sync.confirmed = await send(sync.product, wish);
      sent = wish;
    }
  } catch (error) {
    landed = false;
    wasRefused = isRefusal(error);
    notifyError(failureMessage(sync.product, sync.wish, error));
  } finally {
    if (sync.confirmed) basket.lines[id] = sync.confirmed;
    else delete basket.lines[id];
    if (basket.checkedProducts[id] && sync.confirmed) {
      basket.checkedProducts[id] = sync.confirmed.product;
    }
    touch(id);
    syncs.delete(id);
    delete basket.lineSaving[id];
    delete basket.lineRemoving[id];
  }
  if (wasRefused) {
    // The product data shown is out of date (its rest, its availability): fetch the basket for
    // the server's, or plus stays enabled and fails again. Other lines' changes on their way
    // keep their wishes (see `applyList`).
    refused.add(id);
    if (!(await fetchBasket(true))) await refreshTotal();
  } else {
    await refreshTotal();
  }
  return landed;
}

function queue(product: Product, wish: Wish): Promise<void> {
  const id = String(product.id);
  let sync = syncs.get(id);
  if (sync) {
    sync.wish = wish;
    sync.product = product;
  } else {
    const created: LineSync = {
      product,
      wish,
      confirmed: copy(basket.lines[id]),
      run: Promise.resolve(true),
    };
    syncs.set(id, created);
    created.run = syncLine(id, created);
    sync = created;
  }
  touch(id);
  showWish(basket.lines, id, sync);
  if (wish.kind === 'delete') basket.lineRemoving[id] = true;
  else basket.lineSaving[id] = true;
  return sync.run.then(() => undefined);
}

/** The product as the basket controls should judge it: re-read after a refusal, if it was. */
export function checkedProduct(
  checked: Readonly<Record<string, Product>>,
  product: Product,
): Product {
  return checked[String(product.id)] ?? product;
}

/**
 * Sets a line's amount (made valid first: below 0 is 0, above the maximum is the maximum). The
 * change shows at once; if the call fails, the line returns to the server's amount and a
 * message says so. 0 removes the line.
 */
export function setAmount(product: Product, amount: number): Promise<void> {
  return queue(product, { kind: 'amount', amount: clampAmount(product, amount) });
}

/**
 * `В корзину`: one step. When the basket list never arrived (the start-up load failed), it is
 * fetched first: the product may already be in the basket, and a blind PUT would replace the
 * amount the shopper put there before; then the control just shows that amount. If the list
 * still does not come, nothing is sent and the failure notice with `Повторить` shows again.
 */
export async function addToBasket(product: Product): Promise<void> {
  if (!basket.loaded && basket.loadFailed) {
    await loadBasket();
    if (!basket.loaded || amountOf(basket.lines, product.id) > 0) return;
  }
  await setAmount(product, stepOf(product));
}

/** Removes the line (DELETE); its controls wait until the server has answered. */
export function removeLine(product: Product): Promise<void> {
  return queue(product, { kind: 'delete' });
}
