// Who is asking: Django's `sessionid` and `csrftoken` cookies and DRF TokenAuthentication.
// identify() runs first on every /api request, csrfGuard() right after it.
import { randomBytes } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { nowIso } from './clock.ts';
import type { StubContext } from './context.ts';
import type { Store, StoredUser, StubData } from './db.ts';
import { HttpError } from './http.ts';
import { parseCookie } from 'cookie';

export interface Visitor {
  sessionId: string;
  /** The user of a valid `Authorization: Token …` header, else null (anonymous). */
  user: StoredUser | null;
  /** Who the basket and the orders belong to: `user:{id}` or `session:{sessionid}`. */
  owner: string;
  /** The `csrftoken` cookie the request carried, null when it had none. */
  csrfCookie: string | null;
}

const SESSION_COOKIE = 'sessionid';
const CSRF_COOKIE = 'csrftoken';
const DAY_MS = 24 * 3600 * 1000;
/** Django's SESSION_COOKIE_AGE: a session unseen this long is gone. */
export const SESSION_AGE_MS = 14 * DAY_MS;
/** A session's last visit is recorded at most this often by reads, so they stay reads. */
const SEEN_REFRESH_MS = DAY_MS;
const CSRF_AGE_MS = 31_449_600 * 1000; // Django's CSRF_COOKIE_AGE: a year
const KEY_CHARS = 'abcdefghijklmnopqrstuvwxyz0123456789';
const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export const INVALID_TOKEN = 'Недопустимый токен.';
export const CSRF_FAILED = 'CSRF Failed: CSRF token missing or incorrect.';

export const isSessionKey = (value: string): boolean => /^[A-Za-z0-9]{8,64}$/.test(value);
const isCsrfToken = (value: string): boolean => /^[A-Za-z0-9]{16,64}$/.test(value);

/** A random key like Django's: lower-case letters and digits. */
export function randomKey(length = 32): string {
  return [...randomBytes(length)].map((byte) => KEY_CHARS[byte % KEY_CHARS.length]).join('');
}

export const newTokenKey = (): string => randomBytes(20).toString('hex');

/** A request's cookies, decoded, the first of a name winning (as Django reads them). */
export function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const [name, value] of Object.entries(parseCookie(header ?? ''))) {
    if (value !== undefined) cookies.set(name, value);
  }
  return cookies;
}

const visitors = new WeakMap<Request, Visitor>();

export function visitorOf(req: Request): Visitor {
  const visitor = visitors.get(req);
  if (!visitor) throw new Error('identify() must run before the /api routes');
  return visitor;
}

export const userOwner = (user: Pick<StoredUser, 'id'>): string => `user:${user.id}`;
export const sessionOwner = (sessionId: string): string => `session:${sessionId}`;

/** The user of a token key that exists and is not revoked. */
export function userOfToken(data: StubData, key: string): StoredUser | null {
  const token = data.tokens.find((candidate) => candidate.key === key && !candidate.revoked);
  if (!token) return null;
  return data.users.find((user) => user.id === token.user_id) ?? null;
}

function unauthorized(detail: string): HttpError {
  return new HttpError(401, { detail }, { 'WWW-Authenticate': 'Token' });
}

/** DRF TokenAuthentication: no `Token` header is anonymous, a bad one is 401 everywhere. */
function authenticate(data: StubData, header: string | undefined): StoredUser | null {
  const parts = (header ?? '').trim().split(/\s+/);
  if (parts[0]?.toLowerCase() !== 'token') return null;
  if (parts.length === 1)
    throw unauthorized('Недопустимый заголовок токена. Не предоставлены учётные данные.');
  if (parts.length > 2)
    throw unauthorized('Недопустимый заголовок токена. Токен не должен содержать пробелов.');
  const user = userOfToken(data, parts[1] ?? '');
  if (!user) throw unauthorized(INVALID_TOKEN);
  return user;
}

// Session keys handed out that own nothing yet, per store (the data file lists the others).
// Bounded: a forgotten one only means its visitor, who had nothing, gets a new session.
const MAX_UNUSED_SESSIONS = 10_000;
const unusedSessions = new WeakMap<Store, Set<string>>();

function unusedSessionsOf(store: Store): Set<string> {
  let keys = unusedSessions.get(store);
  if (!keys) {
    keys = new Set();
    unusedSessions.set(store, keys);
  }
  return keys;
}

function setSessionCookie(res: Response, sessionId: string): void {
  res.cookie(SESSION_COOKIE, sessionId, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    maxAge: SESSION_AGE_MS,
  });
}

function remember(keys: Set<string>, sessionId: string): void {
  keys.add(sessionId);
  if (keys.size > MAX_UNUSED_SESSIONS) {
    const [oldest] = keys;
    if (oldest !== undefined) keys.delete(oldest);
  }
}

/** A new session key, remembered as the stub's own, and its cookie on the answer. */
function issueSession(store: Store, res: Response): string {
  const sessionId = randomKey();
  remember(unusedSessionsOf(store), sessionId);
  setSessionCookie(res, sessionId);
  return sessionId;
}

/**
 * Whether the stub gave out this session key, as Django only honours keys its session store
 * holds: a key handed out and not yet used, one the data knows (its basket or orders, or its
 * record), or the controls' fixed session. A key the client made up is not one of them.
 */
function isKnownSession({ store, settings }: StubContext, sessionId: string): boolean {
  if (sessionId === settings.fixedSession || unusedSessionsOf(store).has(sessionId)) return true;
  const data = store.data;
  const owner = sessionOwner(sessionId);
  return (
    sessionId in data.sessions ||
    owner in data.baskets ||
    data.orders.some((order) => order.owner === owner)
  );
}

export interface NewSessionKey {
  key: string;
  /** After the save: the old key is forgotten, the new one honoured and sent as the cookie. */
  issue(res: Response): void;
}

/**
 * Django's cycle_key() on login: the visitor's session gets a new key (and cookie) and the old
 * one stops working, so a key planted in the browser before login is worthless after it. What
 * the session still owns (its record, anonymous orders) moves to the new key in the data; the
 * caller has already moved the basket into the account. Nothing outside the data changes until
 * the caller has saved and calls issue(): a login whose save fails keeps the old cookie.
 */
export function rotateSession(ctx: StubContext, req: Request): NewSessionKey {
  const visitor = visitorOf(req);
  const { store } = ctx;
  const data = store.data;
  const oldId = visitor.sessionId;
  const newId = randomKey();
  const record = data.sessions[oldId];
  if (record) {
    delete data.sessions[oldId];
    data.sessions[newId] = { ...record, last_seen_ts: nowIso() };
  }
  const oldOwner = sessionOwner(oldId);
  const newOwner = sessionOwner(newId);
  for (const order of data.orders) if (order.owner === oldOwner) order.owner = newOwner;
  const basket = data.baskets[oldOwner];
  if (basket) {
    delete data.baskets[oldOwner];
    data.baskets[newOwner] = basket;
  }
  return {
    key: newId,
    issue: (res) => {
      const keys = unusedSessionsOf(store);
      keys.delete(oldId);
      remember(keys, newId);
      setSessionCookie(res, newId);
      visitor.sessionId = newId;
      if (!visitor.user) visitor.owner = newOwner;
    },
  };
}

export function identify(ctx: StubContext): RequestHandler {
  const { store, settings } = ctx;
  return (req: Request, res: Response, next: NextFunction) => {
    const cookies = parseCookies(req.headers.cookie);
    let sessionId = cookies.get(SESSION_COOKIE) ?? '';
    // An unknown key is treated as none, so a visitor cannot choose (or be given) a session
    // key of someone else's making: it is replaced by a new one.
    if (!isSessionKey(sessionId) || !isKnownSession(ctx, sessionId)) {
      if (settings.fixedSession) {
        sessionId = settings.fixedSession;
        setSessionCookie(res, sessionId);
      } else {
        sessionId = issueSession(store, res);
      }
    } else {
      noteVisit(store, sessionId, res);
    }
    const csrfCookie = cookies.get(CSRF_COOKIE) ?? '';
    if (!isCsrfToken(csrfCookie)) {
      res.cookie(CSRF_COOKIE, randomKey(), { sameSite: 'lax', path: '/', maxAge: CSRF_AGE_MS });
    }
    const user = authenticate(store.data, req.headers.authorization);
    visitors.set(req, {
      sessionId,
      user,
      owner: user ? userOwner(user) : sessionOwner(sessionId),
      csrfCookie: isCsrfToken(csrfCookie) ? csrfCookie : null,
    });
    next();
  };
}

/** Unsafe methods need `X-CSRFToken` equal to the `csrftoken` cookie, token or not. */
export function csrfGuard({ settings }: StubContext): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction) => {
    if (!settings.csrf || !UNSAFE_METHODS.has(req.method)) {
      next();
      return;
    }
    const { csrfCookie } = visitorOf(req);
    const header = req.get('X-CSRFToken');
    if (!csrfCookie || header !== csrfCookie) throw new HttpError(403, { detail: CSRF_FAILED });
    next();
  };
}

/**
 * Records an anonymous session once it owns something, so the data file lists it, and sends its
 * cookie again: like Django, whose cookie lives two weeks from the last change of the session.
 * The caller saves.
 */
export function touchSession(data: StubData, visitor: Visitor, res: Response): void {
  if (visitor.user) return;
  const now = nowIso();
  const session = data.sessions[visitor.sessionId];
  if (session) session.last_seen_ts = now;
  else data.sessions[visitor.sessionId] = { created_ts: now, last_seen_ts: now };
  setSessionCookie(res, visitor.sessionId);
}

/**
 * A visit that only reads still counts as seen: once a day at most, so that reads do not turn
 * into writes, its session's last visit is recorded and its cookie sent again. Nobody waits for
 * that save: were it lost, the session would only look a day older.
 */
function noteVisit(store: Store, sessionId: string, res: Response): void {
  const session = store.data.sessions[sessionId];
  if (!session || Date.now() - Date.parse(session.last_seen_ts) < SEEN_REFRESH_MS) return;
  session.last_seen_ts = nowIso();
  setSessionCookie(res, sessionId);
  void store.save();
}

/**
 * Removes the sessions unseen for SESSION_AGE_MS, as Django's clearsessions does: their
 * records, their baskets and their orders (an anonymous order belongs to its session alone, and
 * nobody can reach it once the session is gone). Users' baskets and orders stay. Answers how
 * many sessions went; the caller saves.
 */
export function expireSessions(data: StubData, now: number): number {
  const lastSeen = new Map<string, number>();
  const seen = (key: string, stamp: string) => {
    const time = Date.parse(stamp);
    // A timestamp that cannot be read does not make a session old.
    lastSeen.set(key, Math.max(lastSeen.get(key) ?? -Infinity, Number.isNaN(time) ? now : time));
  };
  for (const [key, session] of Object.entries(data.sessions)) seen(key, session.last_seen_ts);
  for (const [owner, basket] of Object.entries(data.baskets)) {
    if (owner.startsWith('session:')) seen(owner.slice('session:'.length), basket.updated_ts);
  }
  const expired = new Set<string>();
  for (const [key, time] of lastSeen) if (now - time > SESSION_AGE_MS) expired.add(key);
  if (expired.size === 0) return 0;
  for (const key of expired) {
    delete data.sessions[key];
    delete data.baskets[sessionOwner(key)];
  }
  const owners = new Set([...expired].map(sessionOwner));
  data.orders = data.orders.filter((order) => !owners.has(order.owner));
  return expired.size;
}
