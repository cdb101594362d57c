// A visitor's cookies kept as a browser keeps them, for tests and benches that speak HTTP to the
// shop without a browser (tests/e2e/nginx.test.ts, bench/scale.ts).

/** The visitor's cookies by name. */
export type CookieJar = Map<string, string>;

/** Adds an answer's Set-Cookie pairs to `jar`. */
export function keepCookies(jar: CookieJar, answer: Response): void {
  for (const line of answer.headers.getSetCookie()) {
    const [pair = ''] = line.split(';');
    const at = pair.indexOf('=');
    jar.set(pair.slice(0, at), pair.slice(at + 1));
  }
}

/** The Cookie header the jar makes. */
export function cookieHeader(jar: CookieJar): string {
  return [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
}

/**
 * A visitor's cookies after the app's first call (the session) and a tap on В корзину for each
 * of `products`, posted as a browser without JavaScript posts the form, at the shop at `front`.
 */
export async function visitorWithBasket(front: string, products: string[]): Promise<string> {
  const jar: CookieJar = new Map();
  keepCookies(jar, await fetch(`${front}/api/catalog/basket`));
  for (const product of products) {
    const added = await fetch(`${front}/basket`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'sec-fetch-site': 'same-origin',
        cookie: cookieHeader(jar),
      },
      body: new URLSearchParams({ product, change: 'add', back: '/' }).toString(),
    });
    if (added.status !== 303) throw new Error(`the basket form answered ${added.status}`);
    keepCookies(jar, added);
  }
  if (jar.get('basket') !== '1') throw new Error('the basket form did not mark the basket');
  return cookieHeader(jar);
}
