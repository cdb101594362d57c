// The cookie notice's and the theme's forms (host/forms/settings-forms.ts) send the shopper back
// through the shop's one path guard (src/lib/same-origin-path.ts), as login and the basket do.
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settingsForms } from '../../host/forms/settings-forms.ts';
import * as entry from '../../src/server-entry/entry-server.tsx';
import { listen, type Listening } from './http-helpers.ts';

let shop: Listening;

beforeAll(async () => {
  const app = express();
  app.use(settingsForms(entry));
  shop = await listen(app);
});

afterAll(() => shop.close());

async function postBack(form: string, back: string): Promise<string | null> {
  const answer = await fetch(`${shop.url}${form}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      'Sec-Fetch-Site': 'same-origin',
    },
    body: new URLSearchParams({ back }),
    redirect: 'manual',
  });
  expect(answer.status).toBe(303);
  return answer.headers.get('location');
}

describe.each(['/cookie-consent', '/theme'])('%s sends the shopper back', (form) => {
  it('to the page they were on', async () => {
    expect(await postBack(form, '/product/7?x=1')).toBe('/product/7?x=1');
  });

  it.each([
    '/.//evil.example',
    '/%2f/evil.example',
    '/%5cevil.example',
    '//evil.example',
    '/\\evil.example',
  ])('home instead of %j', async (back) => {
    expect(await postBack(form, back)).toBe('/');
  });
});
