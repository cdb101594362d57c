// The server's calls to the backend on a visitor's behalf: with their cookies and token, from
// their address, and with the cookies the backend sets for them passed on to their browser. Each
// request runs in its own async context, so two visitors' calls never mix, however they overlap.
import { AsyncLocalStorage } from 'node:async_hooks';
import { configureApi } from '../api/http';
import { TOKEN_KEY } from '../api/token';

/** Who is asking, as the shop's server saw the request. */
export interface Visitor {
  /** The request's cookies, by name. */
  cookies: Record<string, string>;
  /** The visitor's address, scheme and host, for the backend's X-Forwarded-* headers. */
  forwardedFor: string;
  proto: string;
  host: string;
}

/** Django's session cookie, and the token's cookie mirror (src/api/token.ts). */
export const SESSION_COOKIE = 'sessionid';
export const TOKEN_COOKIE = TOKEN_KEY;
const CSRF_COOKIE = 'csrftoken';
/** What clears the token's mirror in the visitor's browser (the app then drops its copy too). */
const TOKEN_GONE = `${TOKEN_COOKIE}=; Max-Age=0; Path=/; SameSite=Lax`;

interface VisitorCalls {
  visitor: Visitor;
  /** The cookies as they are now: the request's, with what the backend set since. */
  jar: Map<string, string>;
  /** The backend's Set-Cookie lines for the visitor's answer: the last one of each cookie. */
  setCookies: Map<string, string>;
}

const calls = new AsyncLocalStorage<VisitorCalls>();

/** Takes in a Set-Cookie line: its cookie as the next calls send it, and for the answer. */
function applySetCookie({ jar, setCookies }: VisitorCalls, line: string): void {
  const [pair = '', ...attributes] = line.split(';');
  const at = pair.indexOf('=');
  if (at <= 0) return;
  const name = pair.slice(0, at).trim();
  setCookies.set(name, line);
  const value = pair.slice(at + 1).trim();
  const expired = attributes.some((attribute) => /^\s*max-age\s*=\s*(0|-)/i.test(attribute));
  if (expired || value === '' || value === '""') jar.delete(name);
  else jar.set(name, value);
}

function headersFor({ visitor, jar }: VisitorCalls): Headers {
  const headers = new Headers({
    'X-Forwarded-For': visitor.forwardedFor,
    'X-Forwarded-Proto': visitor.proto,
    'X-Forwarded-Host': visitor.host,
    // Django checks an HTTPS post's Referer against the host it was asked under.
    Referer: `${visitor.proto}://${visitor.host}/`,
  });
  if (jar.size > 0) {
    headers.set('Cookie', [...jar].map(([name, value]) => `${name}=${value}`).join('; '));
  }
  const token = tokenOf(jar);
  if (token) headers.set('Authorization', `Token ${token}`);
  return headers;
}

function tokenOf(jar: Map<string, string>): string | null {
  try {
    return decodeURIComponent(jar.get(TOKEN_COOKIE) ?? '') || null;
  } catch {
    return null;
  }
}

/** The shop's address as the visitor used it: a backend behind X-Forwarded-Host names it. */
export function visitorOrigin(): string | null {
  const store = calls.getStore();
  return store ? `${store.visitor.proto}://${store.visitor.host}` : null;
}

let configured = false;

/** Sends the API client's server calls through the visitor whose request is being handled. */
function configure(): void {
  if (configured) return;
  configured = true;
  configureApi({
    csrfToken: () => calls.getStore()?.jar.get(CSRF_COOKIE) ?? null,
    visitor: {
      headers: () => {
        const store = calls.getStore();
        return store && headersFor(store);
      },
      answered: (response) => {
        const store = calls.getStore();
        if (!store) return;
        for (const line of response.headers.getSetCookie()) applySetCookie(store, line);
        // A token the backend no longer knows (revoked, another device's logout) would make it
        // refuse every call for this visitor: the next calls go without it, and the visitor's
        // browser forgets it.
        if (response.status === 401 && store.jar.has(TOKEN_COOKIE))
          applySetCookie(store, TOKEN_GONE);
      },
    },
  });
}

/** What a piece of work done as a visitor comes back with. */
export interface VisitorAnswer<T> {
  result: T;
  /** The backend's Set-Cookie lines, which the visitor's answer must carry. */
  setCookies: string[];
  /** The visitor's cookies as they are now: a page rendered next for them must use these. */
  cookies: Record<string, string>;
}

/** Runs `work` with every API call made as `visitor`. */
export async function asVisitor<T>(
  visitor: Visitor,
  work: () => Promise<T>,
): Promise<VisitorAnswer<T>> {
  configure();
  const store: VisitorCalls = {
    visitor,
    jar: new Map(Object.entries(visitor.cookies)),
    setCookies: new Map(),
  };
  const result = await calls.run(store, work);
  return {
    result,
    setCookies: [...store.setCookies.values()],
    cookies: Object.fromEntries(store.jar),
  };
}

/**
 * Who the visitor is to the backend (their session, their login), or null for a newcomer: the
 * basket is theirs from the first call that has it.
 */
export function visitorIdentity(visitor: Visitor): string | null {
  const session = visitor.cookies[SESSION_COOKIE];
  const token = visitor.cookies[TOKEN_COOKIE];
  return session || token ? `${session ?? ''}|${token ?? ''}` : null;
}
