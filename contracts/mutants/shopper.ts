// What a shopper sees of a backend, through the shop's production server, without JavaScript:
// plain HTTP as a browser with scripts off sends it (nginx's X-Forwarded-Proto https and
// X-Forwarded-For in front, Sec-Fetch-Site on its form posts), reading the pages' text. Every
// page and form of this path is the server's own calls to the backend, the calls the browser's
// app makes too. It stops at the first thing a shopper would notice is wrong and says what.
//
// The expected texts are the reference backend's seed (the stub's catalogue): raspberries
// (product 7) at 890 ₽ per кг, two products found for «черника», the demo user.
import { formatOrderDate } from '../../src/lib/date';

/** The first thing that went wrong, or null when the whole path worked. */
export type ShopperResult = string | null;

const RASPBERRY = 7;
/** The visitor's address as nginx reports it. */
const VISITOR_ADDRESS = '203.0.113.7';
const PHONE = '+7(916)-123-45-67';
const DEMO = { username: 'demo', password: 'berries2026' };
/** A token nobody holds: the visitor's browser kept it from a session since ended. */
const STALE_TOKEN = '0badc0de0badc0de0badc0de0badc0de0badc0de';

class Broken extends Error {}

interface Page {
  status: number;
  location: string | null;
  html: string;
  /** The visible text of <main> (the whole page when it has none), spaces collapsed. */
  text: string;
  /** The visible text of the whole page: notices show outside <main>. */
  allText: string;
  setCookies: string[];
}

const textOf = (html: string): string =>
  html
    .replace(/<(style|script)[\s\S]*?<\/\1>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;|&#160;|\u00a0|\u202f/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();

/** The page's main content: what the visitor came for, without the header and footer. */
const mainOf = (html: string): string => /<main[\s\S]*?<\/main>/.exec(html)?.[0] ?? html;

/** One browser with scripts off: its cookies, kept as the shop sets them. */
class Browser {
  private readonly jar = new Map<string, string>([['cookieAccepted', 'true']]);
  /** The cookies that came HttpOnly: the page's scripts cannot read them. */
  readonly httpOnly = new Set<string>();

  constructor(private readonly shopUrl: string) {}

  setCookie(name: string, value: string): void {
    this.jar.set(name, value);
  }

  async open(path: string, form?: Record<string, string>): Promise<Page> {
    const headers: Record<string, string> = {
      'X-Forwarded-Proto': 'https',
      'X-Forwarded-For': VISITOR_ADDRESS,
      Cookie: [...this.jar].map(([name, value]) => `${name}=${value}`).join('; '),
    };
    if (form) {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      headers['Sec-Fetch-Site'] = 'same-origin';
    }
    const answer = await fetch(new URL(path, this.shopUrl), {
      method: form ? 'POST' : 'GET',
      headers,
      body: form ? new URLSearchParams(form).toString() : undefined,
      redirect: 'manual',
      // Only against a hang: no answer of a working backend comes near it.
      signal: AbortSignal.timeout(120_000),
    });
    const setCookies = answer.headers.getSetCookie();
    for (const line of setCookies) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      const [name, value] = [pair.slice(0, at), pair.slice(at + 1)];
      if (value === '' || /max-age=0/i.test(line)) this.jar.delete(name);
      else this.jar.set(name, value);
      if (/;\s*httponly\s*(;|$)/i.test(line)) this.httpOnly.add(name);
    }
    const html = await answer.text();
    return {
      status: answer.status,
      location: answer.headers.get('location'),
      html,
      text: textOf(mainOf(html)),
      allText: textOf(html),
      setCookies,
    };
  }

  /** Posts a form and follows its 303 as a browser does; the page it lands on. */
  async post(path: string, form: Record<string, string>): Promise<Page> {
    const posted = await this.open(path, form);
    if (posted.status !== 303 || !posted.location) return posted;
    return this.open(posted.location);
  }

  cookie(name: string): string | undefined {
    return this.jar.get(name);
  }
}

function see(page: Page, what: RegExp | string, where: string): void {
  const text = page.allText;
  const found = typeof what === 'string' ? text.includes(what) : what.test(text);
  if (!found) {
    throw new Broken(
      `${where}: no «${String(what)}» (HTTP ${page.status}: ${page.text.slice(0, 160)})`,
    );
  }
}

function status(page: Page, expected: number, where: string): void {
  if (page.status !== expected) {
    throw new Broken(`${where}: HTTP ${page.status}, not ${expected} (${page.text.slice(0, 160)})`);
  }
}

const count = (html: string, testId: string): number =>
  html.split(`data-testid="${testId}"`).length - 1;

/** The hidden attempt key of the checkout form. */
function attemptKey(page: Page): string {
  const key = /name="idempotency_key" value="([^"]+)"/.exec(page.html)?.[1];
  if (!key) throw new Broken(`the checkout page has no form (${page.text.slice(0, 160)})`);
  return key;
}

const checkout = (key: string) => ({
  idempotency_key: key,
  phone: PHONE,
  comment: '',
  delivery: '1',
  policy_accept: 'on',
});

/** The shop's way of writing "now" on /order_status, for each of the last few minutes. */
function recentOrderTimes(): string[] {
  return [-3, -2, -1, 0, 1].map((minutes) =>
    formatOrderDate(new Date(Date.now() + minutes * 60_000).toISOString()),
  );
}

/** A newcomer's basket with 1.5 кг of raspberries, through the product page's basket form. */
async function raspberriesInBasket(browser: Browser): Promise<void> {
  const back = `/product/${RASPBERRY}`;
  let page = await browser.post('/basket', { product: String(RASPBERRY), back, change: 'add' });
  status(page, 200, 'В корзину on /product/7');
  if (!/name="amount" value="0,1"/.test(page.html)) {
    throw new Broken(`В корзину on /product/7: no amount 0,1 кг (${page.text.slice(0, 160)})`);
  }
  page = await browser.post('/basket', {
    product: String(RASPBERRY),
    back,
    change: 'set',
    amount: '1,5',
  });
  if (!/name="amount" value="1,5"/.test(page.html)) {
    throw new Broken(
      `1,5 кг typed: the field shows ${/name="amount" value="([^"]*)"/.exec(page.html)?.[1] ?? 'nothing'} (${page.text.slice(0, 160)})`,
    );
  }
}

export async function shopperPath(shopUrl: string): Promise<ShopperResult> {
  try {
    const anna = new Browser(shopUrl);

    // The catalogue: the home page, a product, a search in Russian, a product that is not there.
    let page = await anna.open('/');
    status(page, 200, 'the home page');
    see(page, /Малина 890 ₽ \/ кг/, 'the home page');
    page = await anna.open(`/product/${RASPBERRY}`);
    see(page, /Малина 890 ₽ \/ кг в наличии 15 кг/, '/product/7');
    // The product's photo, from the shop's own address (its CSP allows no other) and loading.
    const photo = /<img[^>]+src="([^"]+)"/.exec(mainOf(page.html))?.[1]?.replaceAll('&amp;', '&');
    if (!photo) throw new Broken('/product/7 shows no photo');
    // An image address the shop cannot take as its own is drawn as the placeholder
    // (src/ui/ImageWithPlaceholder.tsx): the page works, the photo is gone.
    if (photo === '/placeholder-product.svg') {
      throw new Broken(
        "/product/7 shows the placeholder: the backend's photo address was not taken",
      );
    }
    if (!photo.startsWith('/')) throw new Broken(`/product/7's photo is not the shop's: ${photo}`);
    const picture = await fetch(new URL(photo, shopUrl));
    if (!picture.ok || !picture.headers.get('content-type')?.startsWith('image/')) {
      throw new Broken(
        `/product/7's photo ${photo}: HTTP ${picture.status} ${picture.headers.get('content-type')}`,
      );
    }
    page = await anna.open('/search?q=черника');
    see(page, 'Найдено товаров: 2', 'a search for «черника»');
    page = await anna.open('/product/999999');
    if (page.status === 302 && page.location) page = await anna.open(page.location);
    status(page, 404, 'a product that does not exist');

    // The basket: 1.5 кг and its total.
    await raspberriesInBasket(anna);
    // With JavaScript on, the app reads this cookie to send it back as X-CSRFToken.
    if (anna.httpOnly.has('csrftoken')) {
      throw new Broken(
        'the csrftoken cookie comes HttpOnly: the app in the browser cannot read it',
      );
    }
    page = await anna.open('/order');
    see(page, /Малина .*Итого 1 335 ₽/, 'the basket page');

    // Checkout, posted twice as a double click does: one order, and both posts end on it.
    page = await anna.open('/commit');
    const key = attemptKey(page);
    for (const post of ['the checkout', 'the checkout posted again (a double click)']) {
      const answer = await anna.open('/commit', checkout(key));
      if (answer.status !== 303 || answer.location !== '/order_status') {
        throw new Broken(
          `${post}: HTTP ${answer.status} to ${answer.location ?? '-'} (${answer.text.slice(0, 200)})`,
        );
      }
    }
    page = await anna.open('/order_status');
    if (count(page.html, 'order') !== 1) {
      throw new Broken(
        `/order_status after one checkout lists ${count(page.html, 'order')} orders`,
      );
    }
    see(page, /1 335 ₽ Создан/, '/order_status');
    if (!recentOrderTimes().some((time) => page.text.includes(time))) {
      throw new Broken(
        `/order_status: the order's time is not now in Moscow (${page.text.slice(0, 120)})`,
      );
    }
    page = await anna.open('/order');
    see(page, 'В корзине пока пусто', 'the basket after the order');

    // A shopper who changes their mind: the basket page's cross takes the line out.
    const vera = new Browser(shopUrl);
    await raspberriesInBasket(vera);
    page = await vera.open('/order');
    if (!page.html.includes('aria-label="Удалить из корзины: Малина"')) {
      throw new Broken(`the basket page has no removal for its line (${page.text.slice(0, 160)})`);
    }
    page = await vera.post('/basket', {
      product: String(RASPBERRY),
      back: '/order',
      change: 'delete',
    });
    // The backend may have removed the line while the shop refused its answer: the page then
    // shows an empty basket under the shop's «could not remove».
    const refused = /Не удалось[^.]*\./.exec(page.allText)?.[0];
    if (refused) throw new Broken(`removing the basket's line: «${refused}»`);
    see(page, 'В корзине пока пусто', 'the basket after its line was removed');

    // Another shopper whose form carries the same key (a page copied between two browsers):
    // their own order, not Anna's.
    const boris = new Browser(shopUrl);
    await raspberriesInBasket(boris);
    const answer = await boris.open('/commit', checkout(key));
    if (answer.status !== 303 || answer.location !== '/order_status') {
      throw new Broken(
        `another shopper's checkout with the same form key: HTTP ${answer.status} to ${answer.location ?? '-'}`,
      );
    }
    page = await boris.open('/order');
    see(page, 'В корзине пока пусто', "another shopper's basket after their checkout");

    // Logging in, and a browser that still carries a token the backend no longer knows.
    const demo = new Browser(shopUrl);
    page = await demo.post('/login/?next_page=/order_status', { ...DEMO, password: 'wrong' });
    see(page, 'Неверный логин или пароль', 'a wrong password');
    page = await demo.post('/login/?next_page=/order_status', DEMO);
    status(page, 200, 'the login');
    if (!demo.cookie('jwt'))
      throw new Broken(`the login set no token (${page.text.slice(0, 160)})`);
    if (count(page.html, 'order') < 1) {
      throw new Broken(
        `/order_status after the login lists no order of demo's (${page.text.slice(0, 160)})`,
      );
    }
    const stale = new Browser(shopUrl);
    stale.setCookie('jwt', STALE_TOKEN);
    page = await stale.open('/order');
    // The shop drops the token on the backend's 401 (this page's basket is lost, the next has it).
    if (stale.cookie('jwt')) {
      throw new Broken(
        `a token the backend no longer knows stays in the browser (HTTP ${page.status}: ${page.text.slice(0, 160)})`,
      );
    }
    page = await stale.open('/order');
    see(page, 'В корзине пока пусто', 'the basket after a token the backend no longer knows');
    return null;
  } catch (error) {
    if (error instanceof Broken) return error.message;
    throw error;
  }
}
