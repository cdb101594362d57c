// What other features may use of the basket.
export { BasketControl } from './BasketControl';
