// The store's own facts: name, address, delivery prices and external links (spec §1, §2, §9).
export const STORE_NAME = 'Ягодная лавка';
export const CITY = 'Вологда';
export const PICKUP_ADDRESS = 'Окружное шоссе, 29';
export const COURIER_PRICE_CITY = 300;
export const COURIER_PRICE_REMOTE_FROM = 500;

export const NEWS_CHANNEL_URL = 'https://t.me/berries_shop';
export const MANAGER_CHAT_URL = 'https://t.me/berries_manager';
export const SOCIAL_URL = 'https://vk.com/berries_shop';
export const MESSENGER_URL = 'https://t.me/berries_shop';
export const STATUS_BOT_URL = 'https://t.me/berries_shop_bot';

/** The description meta of a page that has none of its own. */
export const SHOP_DESCRIPTION = `${STORE_NAME} — свежие ягоды с доставкой по городу и самовывозом`;
