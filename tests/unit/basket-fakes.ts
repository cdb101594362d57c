// For tests of the basket store and the pages built on it: the basket API and the notices as
// vi.fn()s, and the product most of them put in the basket. A test file mocks the modules with
//   vi.mock('…/src/api/basket', () => import('../basket-fakes').then((fakes) => fakes.basketApi));
// and imports the same objects here to script and inspect them.
import { vi } from 'vitest';
import type { Product } from '../../src/api/types';

export const basketApi = {
  getBasket: vi.fn(),
  getTotalPrice: vi.fn(),
  updateBasketAmount: vi.fn(),
  deleteBasketLine: vi.fn(),
};

export const notices = {
  notifyError: vi.fn(),
  showRetryNotice: vi.fn(),
  hideRetryNotice: vi.fn(),
};

export const RASPBERRY: Product = {
  id: 7,
  name: 'Малина',
  image: null,
  unit: 'кг',
  unit_step: 0.1,
  price: 890,
  rest: 15,
  available: true,
};
