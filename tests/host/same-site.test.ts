// The guard in front of the shop's forms (host/forms/same-site.ts): a post another site's page
// makes the shopper's browser send is refused with 403 before its form runs; the shop's own page
// gets through, by Sec-Fetch-Site or, from an older browser, by Origin.
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sameSiteForm } from '../../host/forms/same-site.ts';
import { plainScheme } from '../../host/process/request-scheme.ts';
import { listen, type Listening } from './http-helpers.ts';

let shop: Listening;
const recorded: string[] = [];

beforeAll(async () => {
  const app = express();
  plainScheme(app);
  const record = (form: string, outcome: string) => recorded.push(`${form} ${outcome}`);
  const taken = (_req: express.Request, res: express.Response) => res.send('taken');
  app.post('/login', ...sameSiteForm({ requireProof: true, form: 'login', record }), taken);
  app.post('/theme', ...sameSiteForm({ form: 'theme', record }), taken);
  shop = await listen(app);
});

afterAll(() => shop.close());

async function post(path: string, headers: Record<string, string>) {
  const answer = await fetch(`${shop.url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body: 'username=demo',
  });
  return {
    status: answer.status,
    text: await answer.text(),
    cache: answer.headers.get('cache-control'),
  };
}

describe('a form behind the same-site guard', () => {
  it('takes a post from the shop’s own page, never cached', async () => {
    expect(await post('/login', { 'Sec-Fetch-Site': 'same-origin' })).toEqual({
      status: 200,
      text: 'taken',
      cache: 'no-store',
    });
    // An older browser: no Sec-Fetch-Site, an Origin of the host asked (any scheme: TLS may end
    // at the load balancer).
    const host = new URL(shop.url).host;
    expect((await post('/login', { Origin: `https://${host}` })).status).toBe(200);
  });

  it.each([
    ['another site', { 'Sec-Fetch-Site': 'cross-site' }],
    ['a sibling subdomain', { 'Sec-Fetch-Site': 'same-site' }],
    ['another origin from an older browser', { Origin: 'https://evil.example' }],
    ['an Origin that is no address', { Origin: 'null' }],
  ])('refuses a post from %s, and counts it', async (_case, headers) => {
    recorded.length = 0;
    expect(await post('/login', headers)).toEqual({
      status: 403,
      text: 'Запрос с другого сайта отклонён',
      cache: 'no-store',
    });
    expect(recorded).toEqual(['login cross_site']);
  });

  it('a post that says nothing of where it comes from: refused where proof is required', async () => {
    expect((await post('/login', {})).status).toBe(403);
    expect((await post('/theme', {})).status).toBe(200);
  });
});
