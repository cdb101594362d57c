import { http } from './http';
import type { AmountSum, Basket, BasketEntry, BasketUpdate } from './types';

export const getBasket = () => http<Basket>('/catalog/basket');

export const updateBasketAmount = (productId: number, amount: number) =>
  http<BasketEntry>(`/catalog/basket/${productId}`, {
    method: 'PUT',
    body: { amount } satisfies BasketUpdate,
  });

export async function deleteBasketLine(productId: number): Promise<void> {
  await http(`/catalog/basket/${productId}`, { method: 'DELETE' });
}

export const getTotalPrice = () => http<AmountSum>('/catalog/total_price');
