// The stub's stored data: its types, the seed built from the fixtures, and the file it lives in.
// The data lives in memory, in the json-server router's lowdb instance (`router.db`), and every
// change is followed by `await store.save()`.
//
// Durability rule: an answer that changed data is sent only once that change is on disk. Changes
// made while a write is on its way are written together by the next one (a burst of changes is one
// write), each write is crash-safe (data-file.ts), and serialising the data is the only part of it
// that holds up the event loop. When a write fails, every change not yet on disk is undone in
// memory and its request answers 503: nothing stays half-applied.
import jsonServer, { type LowdbSync } from 'json-server';
import { fileURLToPath } from 'node:url';
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
  checkDataFile,
  dataFileBytes,
  makeFolder,
  readDataFile,
  removeLeftovers,
  setAside,
  writeDataFile,
  writeDataFileAtStart,
} from './data-file.ts';
import { buildCatalogSeed, buildSeed, fixturesFingerprint } from './fixtures/seed.ts';
import { HttpError } from './http.ts';

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

export const SAVE_FAILED = 'Не удалось сохранить изменения. Попробуйте ещё раз.';

interface Waiter {
  resolve: () => void;
  reject: (error: Error) => void;
}

export class Store {
  /** Changes since the last write began, waiting for the next one. */
  private waiting: Waiter[] = [];
  private writing = false;
  private scheduled = false;
  /** Writes of the file since start-up, the start-up write included. */
  private written = 1;

  private constructor(
    private readonly db: LowdbSync,
    readonly file: string,
    /** The file as last written: what a failed write rolls back to. */
    private onDisk: Buffer,
  ) {}

  /**
   * Opens the data file, or seeds it when it is missing (or with `reset`). A damaged file is set
   * aside under a new name, with one line saying so, and the stub starts from the seed. A file
   * the stub may not read or write throws DataFileError, whose message is the line to print.
   */
  static open(file: string, options: { reset?: boolean } = {}): Store {
    makeFolder(file);
    removeLeftovers(file);
    const exists = checkDataFile(file);
    const found = exists && !options.reset ? readDataFile(file) : null;
    let data: StubData;
    if (found?.kind === 'data') {
      data = found.data;
      refreshCatalog(data);
    } else {
      if (found?.kind === 'damaged') {
        const aside = setAside(file, found.problem);
        console.warn(
          `[stub] Файл данных повреждён (${found.problem}): ${file} отложен как ${aside}, ` +
            `заглушка начала с исходных данных, как после npm run stub -- --reset. Нужны старые ` +
            `данные: остановите её, почините копию и верните на место.`,
        );
      }
      data = buildSeed(new Date());
    }
    const bytes = dataFileBytes(data);
    writeDataFileAtStart(file, bytes);
    return new Store(jsonServer.router(data).db, file, bytes);
  }

  /** How many times the file has been written since start-up (a burst of changes is one). */
  get writes(): number {
    return this.written;
  }

  /** The live state: mutate it, then `await save()`. */
  get data(): StubData {
    return this.db.getState() as StubData;
  }

  /**
   * Resolves once the changes made so far are on disk. Rejects with a 503 HttpError when they
   * could not be written; they are undone then. A caller that does not wait for it (a
   * housekeeping change) cannot crash the process with the rejection.
   */
  save(): Promise<void> {
    const saved = new Promise<void>((resolve, reject) => this.waiting.push({ resolve, reject }));
    saved.catch(() => {});
    this.schedule();
    return saved;
  }

  /** Resolves once nothing is waiting to be written (on close). */
  async settle(): Promise<void> {
    if (this.writing || this.waiting.length > 0) await this.save().catch(() => {});
  }

  /** Back to the seed: catalogue, demo user and orders; no baskets, sessions or tokens. */
  reset(): Promise<void> {
    this.db.setState(buildSeed(new Date()));
    return this.save();
  }

  // One write at a time; what arrives meanwhile waits for the next. setImmediate lets every
  // request already read from the sockets make its change first, so they share one write.
  private schedule(): void {
    if (this.writing || this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.write();
    });
  }

  private async write(): Promise<void> {
    this.writing = true;
    const batch = this.waiting;
    this.waiting = [];
    try {
      const bytes = dataFileBytes(this.data);
      await writeDataFile(this.file, bytes);
      this.written += 1;
      this.onDisk = bytes;
      for (const waiter of batch) waiter.resolve();
    } catch (error) {
      // Undo everything not on disk: this batch and the changes made while it was being written.
      const failed = [...batch, ...this.waiting];
      this.waiting = [];
      this.db.setState(JSON.parse(this.onDisk.toString('utf8')) as StubData);
      const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      console.error(
        `[stub] Не удалось записать ${this.file} (${reason}): изменения отменены, ` +
          `запросов с ответом 503: ${failed.length}`,
      );
      const answer = new HttpError(503, { detail: SAVE_FAILED });
      for (const waiter of failed) waiter.reject(answer);
    } finally {
      this.writing = false;
      if (this.waiting.length > 0) this.schedule();
    }
  }
}

/** Replaces the catalogue when the fixtures changed, keeping baskets, orders and users. */
function refreshCatalog(data: StubData): void {
  const catalog = buildCatalogSeed();
  const fingerprint = fixturesFingerprint(catalog);
  if (data.meta.fixtures === fingerprint) return;
  for (const key of CATALOG_KEYS) Object.assign(data, { [key]: catalog[key] });
  const known = new Set(catalog.products.map((product) => String(product.id)));
  for (const basket of Object.values(data.baskets)) {
    for (const id of Object.keys(basket.lines)) if (!known.has(id)) delete basket.lines[id];
  }
  data.meta.fixtures = fingerprint;
}
