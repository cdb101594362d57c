// Every answer has a deadline (issue 39): a backend that answers at once and then trickles a byte
// a second, never ending, behind two instances and the recipe. Each kind of answer ends at its
// own deadline (docs/deploy.md: the table of deadlines) with what the shop says then, through
// nginx: never nginx's own 504 page, never a request held open. Short deadlines keep the test
// quick; the bench (bench/edge-backend.ts) measures the default's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TricklingBackend, tricklingBackend } from './fault-backends.ts';
import { type RecipeInFront, startRecipeInFront } from './nginx-recipe.ts';

let backend: TricklingBackend;
let recipe: RecipeInFront | undefined;
let front = '';

beforeAll(async () => {
  backend = await tricklingBackend();
  recipe = await startRecipeInFront(backend.url, {
    PROXY_TIMEOUT_MS: '2000',
    SSR_DATA_TIMEOUT_MS: '500',
    FORM_TIMEOUT_MS: '1000',
    IMAGE_TIMEOUT_MS: '1000',
  });
  front = recipe.url;
});

afterAll(async () => {
  await recipe?.close();
  await backend?.close();
});

describe('a backend that trickles every answer', () => {
  it('/api ends at PROXY_TIMEOUT_MS with the shop’s own message, through nginx', async () => {
    const answer = await fetch(`${front}/api/catalog/product`);
    expect(answer.status).toBe(504);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await answer.json()).toEqual({ detail: 'Сервер магазина недоступен' });
  });

  it('/media is cut short at PROXY_TIMEOUT_MS, never passed on as if whole', async () => {
    const answer = await fetch(`${front}/media/catalog/product-7.jpg`);
    expect(answer.status).toBe(200);
    await expect(answer.arrayBuffer()).rejects.toThrow();
  });

  it('a page goes out at SSR_DATA_TIMEOUT_MS with what it has, and the rest to load', async () => {
    const answer = await fetch(`${front}/catalog`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('private, no-store');
    expect(await answer.text()).toContain('Повторить');
  });

  it('a form posted without JavaScript says at FORM_TIMEOUT_MS that the basket did not change', async () => {
    const answer = await fetch(`${front}/basket`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'sec-fetch-site': 'same-origin',
      },
      body: new URLSearchParams({ product: '7', change: 'add', back: '/catalog' }).toString(),
    });
    expect(answer.status).toBe(303);
    const notice = answer.headers.getSetCookie().find((line) => line.startsWith('notice='));
    expect(decodeURIComponent(notice ?? '')).toContain('не ответил вовремя');
  });

  it('a picture is the placeholder at IMAGE_TIMEOUT_MS', async () => {
    const answer = await fetch(`${front}/img/v1/160/catalog/product-7.jpg`);
    expect(answer.headers.get('x-image-error')).toBe('too-slow');
    expect(answer.headers.get('content-type')).toBe('image/svg+xml');
    await answer.arrayBuffer();
  });

  it('leaves no answer of the backend’s open behind it', async () => {
    await expect.poll(() => backend.open()).toBe(0);
  });
});
