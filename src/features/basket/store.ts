import { createContext, useContext } from 'react';
import { proxy, type Snapshot, useSnapshot } from 'valtio';
import { failureCase, type FailureCase } from '../../api/call-failure';
import { errorStatus } from '../../api/http';
import { deleteBasketLine, getBasket, getTotalPrice, updateBasketAmount } from '../../api/basket';
import type { Basket, BasketEntry, Product } from '../../api/types';
import { clampAmount, lineSum, stepOf } from '../../lib/amount';
import { hasPrice } from '../../lib/product-text';
import { changeFailedText } from './basket-form';
import { roundTo } from '../../lib/round';
import { failureText } from '../../ui/failure-text';
import { hideRetryNotice, notifyError, showRetryNotice } from '../../ui/notify';
import { useHydrated } from '../../ui/hydration';

// The basket (spec §3, §4): lines keyed by product id, the total (amount_sum) fetched separately.
export interface BasketState {
  lines: Basket;
  amount_sum: number;
  /** The whole basket is (re)loading: every control waits. */
  loading: boolean;
  /**
   * Product ids whose line is being saved (PUT) or removed (DELETE): that line's controls wait
   * for the server's answer (spec §4), on every screen that shows it.
   */
  lineLoading: Record<string, boolean>;
  /** Why the last load failed (null: it did not); the lines shown are the last known ones. */
  loadFailure: FailureCase | null;
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
    lineLoading: {},
    loadFailure: null,
    loaded: false,
    totalFailed: false,
    checkedProducts: {},
  };
}

export const basket = proxy<BasketState>(initialState());

/** The visitor's basket as the server rendered it: the list and its total. */
export interface BasketSeed {
  lines: Basket;
  amount_sum: number;
}

/**
 * What a page starts with: the basket as the server rendered it, or why the server did not have
 * it (the backend down, an error, an odd answer). The page says so until the app, once it runs,
 * loads it again.
 */
export type BasketStart = BasketSeed | FailureCase;

export function seededBasket(start: BasketStart): Snapshot<BasketState> {
  return typeof start === 'string'
    ? { ...initialState(), loadFailure: start }
    : { ...initialState(), ...start, loaded: true };
}

/** In the browser, before hydration: the store starts from what the server rendered. */
export function seedBasket(start: BasketStart): void {
  Object.assign(basket, seededBasket(start));
}

/** The basket the page was rendered with (src/app/App.tsx provides it). */
export const BasketSeedContext = createContext<Snapshot<BasketState>>(initialState());

/**
 * The basket for rendering. Until hydration is over, every part shows it as the server rendered
 * it: a part hydrated late (a Suspense boundary) would otherwise meet a change made in between,
 * and not match.
 */
export function useBasket(): Snapshot<BasketState> {
  const snap = useSnapshot(basket);
  const seed = useContext(BasketSeedContext);
  return useHydrated() ? snap : seed;
}

/** A change of one line: a new amount (PUT; 0 takes the line out) or its removal (DELETE). */
type Change = { kind: 'amount'; amount: number } | { kind: 'delete' };
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
 * session: that answer starts it (the session and CSRF cookies). A change sent before it would go
 * without them, and be refused, or start a second session whose cookie the first answer then
 * replaces: changes wait for it.
 */
let firstAnswer: Promise<void> | undefined;

function touch(id: string): void {
  clock += 1;
  changedAt.set(id, clock);
}

export function resetBasket(): void {
  saving.clear();
  changedAt.clear();
  refused.clear();
  firstAnswer = undefined;
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
 * Resolves once every basket change on its way has reached the server or failed: true when all
 * of them landed, false when one failed (its line is back at the server's amount, so the basket
 * is not what the shopper last saw).
 */
export async function basketSettled(): Promise<boolean> {
  let landed = true;
  while (saving.size > 0) {
    const results = await Promise.all(saving.values());
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
/** What a failed basket load says, by its case. */
export const loadFailedText = (failure: FailureCase): string =>
  failureText('Не удалось загрузить корзину', failure);
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
  const failure = basket.loadFailure ?? 'unreachable';
  showRetryNotice(LOAD_NOTICE, loadFailedText(failure), () => void loadBasket());
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
    if (basket.loadFailure && !basket.loaded && !basket.loading) reportLoadFailure();
  };
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
    const own = basket.lines[id];
    if (own) lines[id] = own;
    else delete lines[id];
  }
  for (const id of saving.keys()) {
    const own = basket.lines[id];
    if (own) lines[id] = { product: lines[id]?.product ?? own.product, amount: own.amount };
    else delete lines[id];
  }
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
    const listed = getBasket();
    firstAnswer ??= listed.then(
      () => undefined,
      () => undefined,
    );
    const lines = await listed;
    // A newer request is under way; it sets the basket.
    if (request !== loadRequest) return true;
    applyList(lines, startedAt);
    basket.loadFailure = null;
    basket.loaded = true;
    hideRetryNotice(LOAD_NOTICE);
    // The lines are usable now; their controls need not wait for the total as well.
    basket.loading = false;
    await refreshTotal();
    return true;
  } catch (error) {
    // A quiet refresh fails silently only when a basket is already shown.
    if (request === loadRequest && (!quiet || !basket.loaded)) {
      basket.loadFailure = failureCase(error);
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
 * Fetches them again behind a basket already shown (the one the server rendered): the controls
 * stay usable meanwhile, so a tap right after the page wakes up is never lost.
 */
export async function refreshBasket(): Promise<void> {
  await fetchBasket(true);
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
  if (after) basket.lines[id] = after;
  else delete basket.lines[id];
  if (basket.checkedProducts[id] && after) basket.checkedProducts[id] = after.product;
  touch(id);
  saving.delete(id);
  delete basket.lineLoading[id];
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
  const before = copy(basket.lines[id]);
  if (change.kind === 'amount' && change.amount > 0) {
    basket.lines[id] = { product: before?.product ?? product, amount: change.amount };
  } else {
    delete basket.lines[id];
  }
  basket.lineLoading[id] = true;
  touch(id);
  const run = save(id, product, change, before);
  saving.set(id, run);
  return run.then(() => undefined);
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
  return changeLine(product, { kind: 'amount', amount: clampAmount(product, amount) });
}

/**
 * `В корзину`: one step. When the basket list never arrived (the start-up load failed), it is
 * fetched first: the product may already be in the basket, and a blind PUT would replace the
 * amount the shopper put there before; then the control just shows that amount. If the list
 * still does not come, nothing is sent and the failure notice with `Повторить` shows again.
 */
export async function addToBasket(product: Product): Promise<void> {
  if (!basket.loaded && basket.loadFailure) {
    await loadBasket();
    if (!basket.loaded || amountOf(basket.lines, product.id) > 0) return;
  }
  await setAmount(product, stepOf(product));
}

/** Removes the line (DELETE); its controls wait until the server has answered. */
export function removeLine(product: Product): Promise<void> {
  return changeLine(product, { kind: 'delete' });
}
