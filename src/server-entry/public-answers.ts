// The public answers pages render from (the catalogue, search, carousel, news, policy), kept in
// memory for a short while: a newcomer's view costs the backend only their basket, and while the
// backend is down or stalled the catalogue renders from the last good answers.
import { LRUCache } from 'lru-cache';
import { type Api, errorStatus } from '../api/http';
import type { Query } from '../ui/page-data';
import { NO_RECORDER, type ServerRecorder } from './recorder';

export interface PublicAnswersOptions {
  // Set by the shop's server from its settings (host/settings.ts: CATALOG_CACHE_*).
  /** How long an answer is used without asking the backend again. */
  freshMs: number;
  /** How long an older answer stands in when the backend fails or is late (stale-if-error). */
  staleMs: number;
  /** How many answers are kept, least recently used first out. */
  maxEntries: number;
}

interface Kept {
  value: unknown;
  at: number;
}

/** A failure the backend's last good answer may cover: no answer, or the backend's own fault. */
function isOutage(error: unknown): boolean {
  const status = errorStatus(error);
  return status === undefined || status >= 500;
}

export class PublicAnswers {
  private readonly kept: LRUCache<string, Kept>;

  constructor(
    private readonly options: PublicAnswersOptions,
    private readonly recorder: ServerRecorder = NO_RECORDER,
  ) {
    this.kept = new LRUCache<string, Kept>({ max: options.maxEntries, ttl: options.staleMs });
  }

  /**
   * The query's answer: a fresh one kept here without a call; else the backend's, kept for next
   * time; else, when the backend fails or does not answer in time, the last good one. A visitor's
   * own data (not `shared`) always goes to the backend and is never kept.
   */
  async load<T>(query: Query<T>, api: Api): Promise<T> {
    // A stale window of 0 keeps nothing (the browser tests' shop: every load is the backend's).
    if (!query.shared || this.options.staleMs <= 0) return query.load(api);
    const kept = this.kept.get(query.key);
    // One steady clock, lru-cache's own: a step of the system's clock changes no answer's age.
    if (kept && performance.now() - kept.at < this.options.freshMs) {
      this.recorder.sharedAnswer('memory');
      return kept.value as T;
    }
    try {
      const value = await query.load(api);
      this.kept.set(query.key, { value, at: performance.now() });
      this.recorder.sharedAnswer('fetched');
      return value;
    } catch (error) {
      if (kept && isOutage(error)) {
        this.recorder.sharedAnswer('stale');
        return kept.value as T;
      }
      this.recorder.sharedAnswer('failed');
      // Anything else is an answer (a 404: the product is gone): it is never covered up, now or
      // in a later outage.
      this.kept.delete(query.key);
      throw error;
    }
  }
}
