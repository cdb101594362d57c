import { type Api, getter, http } from './http';
import type { AmountSum, Basket, BasketEntry, BasketUpdate } from './types';

export const getBasket = getter<Basket>('/catalog/basket');

export const updateBasketAmount = (productId: number, amount: number, api: Api = http) =>
  api<BasketEntry>(`/catalog/basket/${productId}`, {
    method: 'PUT',
    body: { amount } satisfies BasketUpdate,
  });

export async function deleteBasketLine(productId: number, api: Api = http): Promise<void> {
  await api(`/catalog/basket/${productId}`, { method: 'DELETE' });
}

export const getTotalPrice = getter<AmountSum>('/catalog/total_price');
