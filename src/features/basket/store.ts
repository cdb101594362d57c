import { proxy } from 'valtio';
import { fieldErrors } from '../../api/http';
import { deleteBasketLine, getBasket, getTotalPrice, updateBasketAmount } from '../../api/basket';
import type { Basket, BasketEntry, Product } from '../../api/types';
import { clampAmount, stepOf } from '../../lib/amount';
import { notifyError } from '../../ui/notify';
import { hideRetryNotice, showRetryNotice } from '../../ui/retry-notice';

// The basket (spec §3, §4): lines keyed by product id, the total (amount_sum) fetched separately.
export interface BasketState {
  lines: Basket;
  amount_sum: number;
  /** The whole basket is (re)loading: every control waits. */
  loading: boolean;
  /** Product ids whose line is being removed: that line's controls wait. */
  lineLoading: Record<string, boolean>;
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
}

function initialState(): BasketState {
  return {
    lines: {},
    amount_sum: 0,
    loading: false,
    lineLoading: {},
    lineSaving: {},
    loadFailed: false,
    loaded: false,
    totalFailed: false,
  };
}

export const basket = proxy<BasketState>(initialState());

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
  run: Promise<void>;
}
const syncs = new Map<string, LineSync>();
let totalRequest = 0;
let loadRequest = 0;

export function resetBasket(): void {
  syncs.clear();
  Object.assign(basket, initialState());
}

/** The cart badge counts lines with an amount above 0, not the sum of amounts. */
export function lineCount(lines: Basket): number {
  return Object.values(lines).filter((line) => line.amount > 0).length;
}

export function amountOf(lines: Basket, productId: number): number {
  return lines[String(productId)]?.amount ?? 0;
}

/** Resolves once every queued basket change has reached the server (or failed). */
export async function basketSettled(): Promise<void> {
  while (syncs.size > 0) await Promise.all([...syncs.values()].map((sync) => sync.run));
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
const LOAD_FAILED_TEXT = 'Не удалось загрузить корзину. Проверьте соединение и попробуйте ещё раз.';
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

/** Fetches the basket list, then its total. */
export async function loadBasket(): Promise<void> {
  const request = ++loadRequest;
  basket.loading = true;
  try {
    const lines = await getBasket();
    if (request !== loadRequest) return;
    // A change still on its way wins over the list, which was read before it landed.
    for (const [id, sync] of syncs) showWish(lines, id, sync);
    basket.lines = lines;
    basket.loadFailed = false;
    basket.loaded = true;
    hideRetryNotice(LOAD_NOTICE);
    // The lines are usable now; their controls need not wait for the total as well.
    basket.loading = false;
    await refreshTotal();
  } catch {
    if (request === loadRequest) {
      basket.loadFailed = true;
      reportLoadFailure();
    }
  } finally {
    if (request === loadRequest) basket.loading = false;
  }
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

/** Sends the line's latest wish until the server holds it; on failure shows the server's line. */
async function syncLine(id: string, sync: LineSync): Promise<void> {
  // Let the clicks of this same moment join the first call.
  await Promise.resolve();
  let sent: Wish | undefined;
  try {
    while (!sent || !sameWish(sent, sync.wish)) {
      const wish = sync.wish;
      sync.confirmed = await send(sync.product, wish);
      sent = wish;
    }
    if (sync.confirmed) basket.lines[id] = sync.confirmed;
    else delete basket.lines[id];
  } catch (error) {
    if (sync.confirmed) basket.lines[id] = sync.confirmed;
    else delete basket.lines[id];
    notifyError(failureMessage(sync.product, sync.wish, error));
  } finally {
    syncs.delete(id);
    delete basket.lineSaving[id];
    delete basket.lineLoading[id];
  }
  await refreshTotal();
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
      run: Promise.resolve(),
    };
    syncs.set(id, created);
    created.run = syncLine(id, created);
    sync = created;
  }
  showWish(basket.lines, id, sync);
  if (wish.kind === 'delete') basket.lineLoading[id] = true;
  else basket.lineSaving[id] = true;
  return sync.run;
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
