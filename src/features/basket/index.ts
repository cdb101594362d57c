// What other features may use of the basket.
export { BasketControl } from './BasketControl';
export { BasketLoadError, useBasketLoad } from './BasketLoadError';
export { TotalText } from './TotalText';
export {
  basket,
  basketSettled,
  lineCount,
  loadBasket,
  orderableLineCount,
  refreshTotal,
  takeOrderedLines,
  useBasket,
} from './store';
