// What other features may use of the basket.
export { BasketControl } from './BasketControl';
export { BasketLoadError, useBasketLoad } from './BasketLoadError';
export { TotalText } from './TotalText';
export {
  basket,
  type BasketSeed,
  BasketSeedContext,
  basketSettled,
  lineCount,
  loadBasket,
  orderableLineCount,
  refreshBasket,
  refreshTotal,
  seedBasket,
  seededBasket,
  takeOrderedLines,
  useBasket,
} from './store';
