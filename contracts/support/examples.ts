// Example values of the pact, typed against src/api/types.ts: renaming or dropping a field the app
// relies on breaks `npm run typecheck` here, and the consumer tests compare what the app's
// functions return with these very objects (or the fields of them that the pact answers). Values mirror the stub's seed so the pact reads like
// the shop.
import type {
  Breadcrumbs,
  CarouselSlide,
  Credentials,
  NewsItem,
  Order,
  OrderCommit,
  Policy,
  Product,
  Section,
  SectionRef,
  Selection,
  User,
} from '../../src/api/types';

export const MISSING_ID = 999999;

export const RASPBERRY: Product = {
  id: 7,
  name: 'Малина',
  image: '/media/catalog/product-7.svg',
  unit: 'кг',
  unit_step: 0.1,
  price: 890,
  rest: 15,
  available: true,
};

/** The nullable fields at null: no photo, no price yet, sold by the piece. */
export const JAM_WITHOUT_PHOTO: Product = {
  id: 45,
  name: 'Конфитюр черничный, 250 г',
  image: null,
  unit: 'шт',
  unit_step: null,
  price: null,
  rest: 15,
  available: true,
};

export const BILBERRY: Product = {
  id: 20,
  name: 'Черника',
  image: '/media/catalog/product-20.svg',
  unit: 'кг',
  unit_step: 0.1,
  price: 990,
  rest: 22,
  available: true,
};

export const GARDEN_STRAWBERRY: Product = {
  id: 6,
  name: 'Клубника садовая',
  image: '/media/catalog/product-6.svg',
  unit: 'кг',
  unit_step: 0.1,
  price: 590,
  rest: 40,
  available: true,
};

export const BERRIES: SectionRef = { id: 1, name: 'Ягоды', image: '/media/catalog/section-1.svg' };

export const FOREST_BERRIES: SectionRef = {
  id: 9,
  name: 'Лесные ягоды',
  image: '/media/catalog/section-9.svg',
};

export const REMONTANT_STRAWBERRY: SectionRef = {
  id: 20,
  name: 'Клубника ремонтантная',
  image: '/media/catalog/section-20.svg',
};

export const STRAWBERRY: Section = {
  id: 14,
  name: 'Клубника',
  image: '/media/catalog/section-14.svg',
  children: [REMONTANT_STRAWBERRY],
  products: [GARDEN_STRAWBERRY],
};

/** Spec §2: the section page then shows «Раздел пока пуст». */
export const EXOTIC_BERRIES: Section = {
  id: 22,
  name: 'Экзотические ягоды',
  image: '/media/catalog/section-22.svg',
  children: [],
  products: [],
};

export const STRAWBERRY_CRUMBS: Breadcrumbs = [{ id: 1, name: 'Ягоды' }];

export const RASPBERRY_CRUMBS: Breadcrumbs = [{ id: 1, name: 'Ягоды' }];

export const SEASON_HITS: Selection = {
  id: 1,
  name: 'Сезонные хиты',
  description: 'Самое спелое на этой неделе: собрали утром — привезём к обеду.',
  sections: [FOREST_BERRIES],
  products: [RASPBERRY],
};

/** Not filled yet: the selection page shows «Раздел пока пуст» too. */
export const COMING_SOON: Selection = {
  id: 4,
  name: 'Скоро в сезон',
  description: 'Подборку наполним, когда созреет урожай.',
  sections: [],
  products: [],
};

export const PHONE = '+7(916)-123-45-67';
/** Fits the input mask, but a mobile number starts with 9 (spec §5). */
export const BAD_PHONE = '+7(123)-456-78-90';

export const ORDER_COMMIT: OrderCommit = {
  delivery: '1',
  policy_accept: true,
  send_accept: false,
  comment: 'Позвоните за час до доставки',
  phone: PHONE,
};

/** Checkout attempts' keys (features/checkout/order-attempt.ts): one per interaction. */
export const ATTEMPT_KEY = '0b5e7f3c-9d1a-4c2e-8f6b-3a7d2e1c9b40';
export const OTHER_ATTEMPT_KEY = '5c2a9e71-4b3d-4f08-a6e1-7d9c3b2f8e15';
/** The keys of the repeats: each names a checkout a provider state has started or answered. */
export const PLACED_ATTEMPT_KEY = '7d1c4e2a-6b3f-4a59-9e08-c2f5a1b7d364';
export const IN_FLIGHT_ATTEMPT_KEY = 'a3f8b2c1-5e7d-4c6a-8b90-1d2e3f4a5b6c';
export const REFUSED_ATTEMPT_KEY = 'c9e1d7b3-2a4f-4e68-b5c0-8f3a6d2e1b97';
export const SHARED_ATTEMPT_KEY = 'e4b7a1d9-3c6e-4f2b-a8d5-9c1e7f3b2a60';
/** The checkout form's key, posted to the shop's server. */
export const SERVER_ATTEMPT_KEY = '3e6f9a2b-8c1d-4b7e-9f05-6a4d2c8e1b73';

export const ORDER: Order = {
  id: 8,
  created_ts: '2026-11-20T14:05:00+03:00',
  status: 0,
  order_sum: 1335,
  items: [{ id: 21, amount: 1.5, price: 890, product: { id: 7, name: 'Малина', unit: 'кг' } }],
};

export const POLICY: Policy = { file: '/media/policy.pdf' };

export const SLIDE: CarouselSlide = {
  id: 1,
  text: 'Свежая клубника с грядки\nСобираем утром — привозим к обеду',
  image: '/media/carousel/slide-1.svg',
  background: '#fde2e4',
  text_color: '#7a1f2b',
};

export const NEWS_POST: NewsItem = { data_telegram_post: 'berries_shop/48' };

export const DEMO_CREDENTIALS: Credentials = { username: 'demo', password: 'berries2026' };

export const DEMO_USER: User = {
  id: 1,
  username: 'demo',
  first_name: 'Анна',
  last_name: 'Смирнова',
  email: 'demo@example.com',
};
