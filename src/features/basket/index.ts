// What other features may use of the basket.
export { BasketControl } from './BasketControl';
export { TotalText } from './TotalText';
export {
  basket,
  basketSettled,
  claimLoadFailure,
  lineCount,
  loadBasket,
  refreshTotal,
  takeOrderedLines,
} from './store';
