// What other features may use of the basket.
export { BasketControl } from './BasketControl';
export { basket, basketSettled, lineCount, loadBasket } from './store';
