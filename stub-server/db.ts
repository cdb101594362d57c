// The stub's stored data: its types, the seed built from the fixtures, and the file it lives in.
// Everything goes through the json-server router's lowdb instance (`router.db`); every change is
// followed by `store.save()`, which is lowdb's `db.write()`, so a restart loses nothing.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import jsonServer, { type LowdbSync } from 'json-server';
import type {
  CarouselSlide,
  Delivery,
  NewsItem,
  Order,
  Policy,
  Product,
  SectionRef,
} from '../src/api/types.ts';
import {
  buildCatalogSeed,
  buildSeed,
  fixturesFingerprint,
  SCHEMA_VERSION,
} from './fixtures/seed.ts';

export const DEFAULT_DATA_FILE = fileURLToPath(new URL('./data/db.json', import.meta.url));

export interface StoredProduct extends Product {
  section_id: number;
}

export interface StoredSection extends SectionRef {
  parent_id: number | null;
}

export interface StoredSelection {
  id: number;
  name: string;
  description: string;
  section_ids: number[];
  product_ids: number[];
}

export interface StoredUser {
  id: number;
  username: string;
  /** `pbkdf2_sha256$iterations$salt$hash` */
  password: string;
  first_name: string;
  last_name: string;
  email: string;
}

export interface StoredToken {
  key: string;
  user_id: number;
  created_ts: string;
  revoked: boolean;
}

export interface StoredSession {
  created_ts: string;
  last_seen_ts: string;
}

/** A basket belongs to an owner: `session:{sessionid}` or `user:{id}`. */
export interface StoredBasket {
  /** product id -> amount (> 0) */
  lines: Record<string, number>;
  updated_ts: string;
}

export interface StoredOrder extends Order {
  owner: string;
  phone: string;
  comment: string;
  delivery: Delivery;
  send_accept: boolean;
}

/** The read-only part, replaced when the fixtures change. */
export interface CatalogData {
  sections: StoredSection[];
  products: StoredProduct[];
  selections: StoredSelection[];
  home: { section_ids: number[]; product_ids: number[] };
  slides: CarouselSlide[];
  news: NewsItem[];
  policy: Policy;
}

export interface StubData extends CatalogData {
  meta: { schema: number; fixtures: string; seeded_ts: string };
  users: StoredUser[];
  tokens: StoredToken[];
  sessions: Record<string, StoredSession>;
  baskets: Record<string, StoredBasket>;
  orders: StoredOrder[];
  counters: { user: number; order: number; order_item: number };
}

const CATALOG_KEYS = [
  'sections',
  'products',
  'selections',
  'home',
  'slides',
  'news',
  'policy',
] as const satisfies readonly (keyof CatalogData)[];

function looksLikeStubData(value: unknown): value is StubData {
  if (!value || typeof value !== 'object') return false;
  const data = value as Partial<StubData>;
  return (
    data.meta?.schema === SCHEMA_VERSION &&
    Array.isArray(data.products) &&
    Array.isArray(data.users) &&
    Array.isArray(data.tokens) &&
    Array.isArray(data.orders) &&
    typeof data.baskets === 'object' &&
    typeof data.sessions === 'object' &&
    typeof data.counters === 'object'
  );
}

/** Makes sure the file holds a JSON object lowdb can open; answers whether it was usable. */
function prepareFile(file: string): boolean {
  mkdirSync(dirname(file), { recursive: true });
  if (!existsSync(file)) return false;
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return true;
  } catch {
    // fall through: unreadable data is replaced by the seed
  }
  console.warn(`[stub] ${file} is not a stub data file; seeding it again`);
  writeFileSync(file, '{}\n');
  return false;
}

export class Store {
  private constructor(
    private readonly db: LowdbSync,
    readonly file: string,
  ) {}

  static open(file: string, options: { reset?: boolean } = {}): Store {
    const usable = prepareFile(file);
    const store = new Store(jsonServer.router(file).db, file);
    const state = store.db.getState();
    if (options.reset || !usable || !looksLikeStubData(state)) store.reset();
    else store.refreshCatalog();
    return store;
  }

  /** The live state: mutate it, then call save(). */
  get data(): StubData {
    return this.db.getState() as StubData;
  }

  save(): void {
    this.db.write();
  }

  /** Back to the seed: catalogue, demo user and orders; no baskets, sessions or tokens. */
  reset(): void {
    this.db.setState(buildSeed(new Date()));
    this.save();
  }

  /** Replaces the catalogue when the fixtures changed, keeping baskets, orders and users. */
  private refreshCatalog(): void {
    const catalog = buildCatalogSeed();
    const fingerprint = fixturesFingerprint(catalog);
    const data = this.data;
    if (data.meta.fixtures === fingerprint) return;
    for (const key of CATALOG_KEYS) Object.assign(data, { [key]: catalog[key] });
    const known = new Set(catalog.products.map((product) => String(product.id)));
    for (const basket of Object.values(data.baskets)) {
      for (const id of Object.keys(basket.lines)) if (!known.has(id)) delete basket.lines[id];
    }
    data.meta.fixtures = fingerprint;
    this.save();
  }
}
