// The auth token lives in localStorage under `jwt` (spec §3). Reads never throw: storage can be
// unavailable (private mode, Node in contract tests), and then the token lives in memory only.
const KEY = 'jwt';
let memoryToken: string | null = null;

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export function getToken(): string | null {
  return storage()?.getItem(KEY) ?? memoryToken;
}

export function setToken(token: string | null): void {
  memoryToken = token;
  const store = storage();
  if (!store) return;
  if (token === null) store.removeItem(KEY);
  else store.setItem(KEY, token);
}
