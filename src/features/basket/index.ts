// What other features may use of the basket.
export { BasketControl } from './BasketControl';
export { BasketLoadError, useBasketLoad } from './BasketLoadError';
export { TotalText } from './TotalText';
export {
  type BasketSeed,
  BasketSeedContext,
  type BasketStore,
  BasketStoreContext,
  createBasketStore,
  lineCount,
  orderableLineCount,
  pageBasket,
  seededBasket,
  useBasket,
  useBasketStore,
} from './store';
