import { type Api, http } from './http';
import type { AmountSum, Basket, BasketEntry, BasketUpdate } from './types';

export const getBasket = (api: Api = http) => api<Basket>('/catalog/basket');

export const updateBasketAmount = (productId: number, amount: number, api: Api = http) =>
  api<BasketEntry>(`/catalog/basket/${productId}`, {
    method: 'PUT',
    body: { amount } satisfies BasketUpdate,
  });

export async function deleteBasketLine(productId: number, api: Api = http): Promise<void> {
  await api(`/catalog/basket/${productId}`, { method: 'DELETE' });
}

export const getTotalPrice = (api: Api = http) => api<AmountSum>('/catalog/total_price');
