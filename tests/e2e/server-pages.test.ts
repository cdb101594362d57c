// What a crawler, a link preview or curl gets from the shop's server (no browser): pages as
// HTML with their data, the right statuses, the head tags, security headers and static files.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { baseUrl } from './browser';

const get = (path: string, init: RequestInit = {}) =>
  fetch(baseUrl() + path, { redirect: 'manual', ...init });

/** The page's scripts: their type, whether they load a file, and their inline text. */
function scripts(html: string) {
  return [...html.matchAll(/<script([^>]*)>([^]*?)<\/script>/g)].map(
    ([, attributes = '', text = '']) => ({
      type: /type="([^"]+)"/.exec(attributes)?.[1],
      src: /\bsrc=/.test(attributes),
      text,
    }),
  );
}

/** A script's CSP source, as browsers compute it. */
const hashOf = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

function jsonLd(html: string): Record<string, unknown>[] {
  return [...html.matchAll(/<script type="application\/ld\+json"[^>]*>(.*?)<\/script>/g)].map(
    ([, json = '']) => JSON.parse(json) as Record<string, unknown>,
  );
}

const meta = (html: string, key: string) =>
  new RegExp(`<meta (?:name|property)="${key}" content="([^"]*)"`).exec(html)?.[1];

describe('a product page as HTML', () => {
  it('has the name, price, stock, OpenGraph tags and Product JSON-LD, without JavaScript', async () => {
    const response = await get('/product/7');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    const html = await response.text();
    // The card itself, as the shopper sees it.
    expect(html).toContain('<h1');
    expect(html).toMatch(/>Малина</);
    // Prices are Intl's: a no-break space before ₽.
    expect(html).toMatch(/>890\s₽ \/ кг</);
    expect(html).toContain('в наличии 15 кг');
    expect(html).toContain('<title>Ягодная лавка — Малина</title>');
    expect(meta(html, 'description')).toMatch(
      /^Малина: 890\s₽ \/ кг, в наличии 15 кг\. Ягодная лавка, Вологда\.$/,
    );
    expect(html).toContain(`<link rel="canonical" href="${baseUrl()}/product/7" />`);
    expect(meta(html, 'og:type')).toBe('product');
    expect(meta(html, 'og:title')).toBe('Малина');
    expect(meta(html, 'og:url')).toBe(`${baseUrl()}/product/7`);
    expect(meta(html, 'og:site_name')).toBe('Ягодная лавка');
    expect(meta(html, 'og:locale')).toBe('ru_RU');
    // Link previews read a 1200 px JPEG from the image route, not the 2 MB original.
    expect(meta(html, 'og:image')).toBe(`${baseUrl()}/img/v1/og/catalog/product-7.jpg`);
    expect(meta(html, 'twitter:card')).toBe('summary_large_image');
    const [product, breadcrumbs] = jsonLd(html);
    expect(product).toMatchObject({
      '@type': 'Product',
      name: 'Малина',
      offers: {
        '@type': 'Offer',
        price: 890,
        priceCurrency: 'RUB',
        availability: 'https://schema.org/InStock',
      },
    });
    expect(breadcrumbs).toMatchObject({ '@type': 'BreadcrumbList' });
    const crumbs = (breadcrumbs as { itemListElement: { name: string }[] }).itemListElement;
    expect(crumbs.map((crumb) => crumb.name)).toEqual([
      'Главная',
      'Ягоды',
      'Садовые ягоды',
      'Малина и ежевика',
      'Малина',
    ]);
  });

  it('embeds the answers it rendered with, so the browser does not ask again', async () => {
    const html = await (await get('/product/7')).text();
    const embedded = /<script id="page-data" type="application\/json"[^>]*>(.*?)<\/script>/.exec(
      html,
    );
    const data = JSON.parse(embedded?.[1] ?? '{}') as { answers: Record<string, unknown> };
    expect(Object.keys(data.answers)).toEqual(['catalog/product/7']);
  });

  it('shows the placeholder picture to link previews of a product without one', async () => {
    const html = await (await get('/product/45')).text();
    expect(meta(html, 'og:image')).toBe(`${baseUrl()}/placeholder-product.svg`);
  });

  it('marks a sold-out product OutOfStock', async () => {
    const html = await (await get('/product/5')).text();
    expect(html).toContain('закончилось');
    expect(jsonLd(html)[0]).toMatchObject({
      offers: { availability: 'https://schema.org/OutOfStock' },
    });
  });
});

describe('other pages as HTML', () => {
  it('home: the selections, and the shop as a Store with its address', async () => {
    const html = await (await get('/')).text();
    expect(html).toContain('<title>Ягодная лавка — Главная</title>');
    expect(html).toContain('href="/selection/');
    const store = jsonLd(html).find((data) => data['@type'] === 'Store');
    expect(store).toMatchObject({
      name: 'Ягодная лавка',
      address: { streetAddress: 'Окружное шоссе, 29', addressLocality: 'Вологда' },
    });
  });

  it('every part is in place, in document order: nothing hidden waits for a script', async () => {
    // React moves a part it sent late (`<div hidden id="S:0">`) into place with an inline `$RC`
    // script: without JavaScript, or before that script runs, the part is not on the page.
    for (const path of ['/', '/catalog', '/section/15', '/product/7', '/news', '/search?q=a']) {
      const html = await (await get(path)).text();
      expect(html, path).toContain('<main');
      expect(html, path).not.toMatch(/<div hidden id="S:/);
      expect(html, path).not.toContain('$RC(');
    }
  });

  it("the theme's colours come in the head, for both schemes, before any of the page", async () => {
    const html = await (await get('/product/7')).text();
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).toContain('--mantine-color-berry-7: #ad1f54');
    expect(head).toContain(':root[data-mantine-color-scheme="dark"]');
    expect(head).toContain('--mantine-color-dimmed: var(--mantine-color-gray-7)');
    expect(html.split('--mantine-color-berry-7:')).toHaveLength(2);
  });

  it('a section: its products and a BreadcrumbList', async () => {
    const html = await (await get('/section/15')).text();
    expect(html).toContain('<title>Ягодная лавка — Малина и ежевика</title>');
    expect(html).toContain('href="/product/7"');
    expect(jsonLd(html)[0]).toMatchObject({ '@type': 'BreadcrumbList' });
  });

  it('search: the results for q, and a form that works as a plain GET', async () => {
    const html = await (await get('/search?q=%D0%BC%D0%B0%D0%BB%D0%B8%D0%BD%D0%B0')).text();
    expect(html).toContain('href="/product/7"');
    expect(html).toMatch(
      /<form[^>]*action="\/search"[^>]*method="get"|<form[^>]*method="get"[^>]*action="\/search"/,
    );
    expect(html).toMatch(/<input[^>]*name="q"/);
  });

  it('the cookie notice only for a visitor who has not accepted it', async () => {
    const fresh = await (await get('/catalog')).text();
    const accepted = await (
      await get('/catalog', { headers: { cookie: 'cookieAccepted=true' } })
    ).text();
    expect(fresh).toContain('Уведомление о cookie');
    expect(accepted).not.toContain('Уведомление о cookie');
  });

  it('a visitor page (basket) renders its frame, never a basket', async () => {
    const response = await get('/order');
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<title>Ягодная лавка — Корзина</title>');
    expect(html).toContain('<meta name="robots" content="noindex" />');
  });
});

describe('statuses', () => {
  it('an unknown path answers 404 with the 404 page', async () => {
    const response = await get('/no-such-page');
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('Страница не найдена');
  });

  it.each([
    ['/product/999999', '/product-404/999999'],
    ['/section/999999', '/section-404/999999'],
    ['/selection/999999', '/selection-404/999999'],
    ['/product/abc', '/product-404/abc'],
  ])('%s redirects to %s, which answers 404', async (path, target) => {
    const response = await get(path);
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(target);
    const page = await get(target);
    expect(page.status).toBe(404);
    expect(await page.text()).toContain('Страница не найдена');
  });

  it('a broken URL answers a short text, no stack trace or file path', async () => {
    for (const path of ['/%E0%A4%A', '/assets/%E0%A4%A', '/product/%E0%A4%A']) {
      const response = await get(path);
      const text = await response.text();
      expect(response.status, path).toBeGreaterThanOrEqual(400);
      expect(response.status, path).toBeLessThan(500);
      expect(text, path).not.toMatch(/URIError|at |\/work\/|node_modules/);
      expect(text.length, path).toBeLessThan(200);
    }
  });

  it('a path that starts with // is that path (404), not another host’s product', async () => {
    const response = await get('//example.com/product/7');
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('Страница не найдена');
  });

  it('a Host header that is not a host still gets the page, never a hung request', async () => {
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const url = new URL(`${baseUrl()}/product/7`);
      request(
        { host: url.hostname, port: url.port, path: url.pathname, headers: { host: 'a|b' } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      )
        .on('error', reject)
        .end();
    });
    expect(status).toBe(200);
  });

  it('/healthz answers ok', async () => {
    const response = await get('/healthz');
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('ok');
  });
});

describe('security headers', () => {
  it('one policy for every visitor, naming every inline script by its hash, and no framing', async () => {
    const [home, product] = await Promise.all([get('/'), get('/product/7')]);
    const policy = home.headers.get('content-security-policy') ?? '';
    // No per-request nonce: a page a shared cache keeps must carry a policy that fits any visitor.
    expect(policy).not.toContain('nonce-');
    expect(product.headers.get('content-security-policy')).toBe(policy);
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain('telegram.org');
    for (const response of [home, product]) {
      const inline = scripts(await response.text()).filter(
        (script) => !script.src && !script.type?.startsWith('application/'),
      );
      expect(inline.length).toBeGreaterThanOrEqual(2);
      for (const script of inline) expect(policy).toContain(hashOf(script.text));
    }
    expect(home.headers.get('x-content-type-options')).toBe('nosniff');
    expect(home.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  });

  it("allows Telegram's widget on /news only", async () => {
    const news = (await get('/news')).headers.get('content-security-policy') ?? '';
    expect(news).toContain('https://telegram.org');
    expect(news).toContain('frame-src https://t.me');
  });

  it('every answer has them, the API included', async () => {
    const api = await get('/api/catalog/section_root');
    expect(api.headers.get('x-content-type-options')).toBe('nosniff');
    expect(api.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });
});

describe('static files', () => {
  it('hashed assets: brotli, immutable, with an ETag; pages: public for everyone, private for the visitor’s own', async () => {
    const html = await (await get('/')).text();
    // The start script's files (its data-scripts attribute, a JSON list): the entry is the last.
    const script = /data-scripts="[^"]*&quot;(\/assets\/index-[^&]+\.js)&quot;\]"/.exec(html)?.[1];
    expect(script).toMatch(/^\/assets\//);
    const asset = await get(script ?? '', { headers: { 'accept-encoding': 'br, gzip' } });
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-encoding')).toBe('br');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('etag')).toBeTruthy();
    const gzip = await get(script ?? '', { headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
    // A catalogue page for a newcomer is everyone's; the basket page is the visitor's own.
    expect((await get('/')).headers.get('cache-control')).toMatch(/^public, .*s-maxage=/);
    expect((await get('/order')).headers.get('cache-control')).toBe('private, no-store');
  });

  it('a file the build does not have is a plain 404', async () => {
    expect((await get('/assets/missing-1234.js')).status).toBe(404);
    expect((await get('/missing.png')).status).toBe(404);
  });

  it('a compressed copy is only ever the encoding of its file, never a page or a file of its own', async () => {
    const html = await (await get('/')).text();
    const script = /data-scripts="[^"]*&quot;(\/assets\/index-[^&]+\.js)&quot;\]"/.exec(html)?.[1];
    // The page template's copies (the build writes them), and an asset's.
    for (const path of ['/index.html.br', '/index.html.gz', `${script}.br`, `${script}.gz`]) {
      const answer = await get(path, { headers: { 'accept-encoding': 'br, gzip' } });
      expect(answer.status, path).toBe(404);
      expect(await answer.text(), path).toBe('Не найдено');
    }
  });
});

describe('robots.txt and sitemap.xml', () => {
  it('the sitemap lists every section, selection and product the API has', async () => {
    const robots = await (await get('/robots.txt')).text();
    expect(robots).toContain(`Sitemap: ${baseUrl()}/sitemap.xml`);
    const response = await get('/sitemap.xml');
    expect(response.headers.get('content-type')).toContain('application/xml');
    const xml = await response.text();
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map(([, loc]) => loc);
    const roots = (await (await get('/api/catalog/section_root')).json()) as { id: number }[];
    for (const { id } of roots) expect(locs).toContain(`${baseUrl()}/section/${id}`);
    const selections = (await (await get('/api/catalog/selections')).json()) as { id: number }[];
    for (const { id } of selections) expect(locs).toContain(`${baseUrl()}/selection/${id}`);
    // Products deep in the tree, found through their sections.
    expect(locs).toContain(`${baseUrl()}/product/7`);
    expect(locs).toContain(`${baseUrl()}/section/15`);
  });
});
