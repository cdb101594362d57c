// The visitor's scheme (host/process/request-scheme.ts), as every part of the server reads it: from
// nginx's X-Forwarded-Proto, where only http and https are schemes a shop's address can have.
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plainScheme, requestOrigin } from '../../host/process/request-scheme.ts';
import { listen, type Listening, rawGet } from './http-helpers.ts';

let shop: Listening;

beforeAll(async () => {
  const app = express();
  app.set('trust proxy', 'loopback');
  plainScheme(app);
  app.get('/', (req, res) => {
    res.json({ protocol: req.protocol, secure: req.secure, origin: requestOrigin(req) });
  });
  shop = await listen(app);
});

afterAll(() => shop.close());

async function seen(proto: string | undefined) {
  const headers: Record<string, string> = { Host: 'shop.example' };
  if (proto !== undefined) headers['X-Forwarded-Proto'] = proto;
  return JSON.parse((await rawGet(shop.url, '/', headers)).body) as unknown;
}

describe('X-Forwarded-Proto from nginx', () => {
  it.each(['https', 'HTTPS', 'https, http', ' https '])('%j is https', async (proto) => {
    expect(await seen(proto)).toEqual({
      protocol: 'https',
      secure: true,
      origin: 'https://shop.example',
    });
  });

  it.each([undefined, 'http', 'x', 'javascript', 'ftp', 'https:', 'http, https', '', 'ws'])(
    '%j is http',
    async (proto) => {
      expect(await seen(proto)).toEqual({
        protocol: 'http',
        secure: false,
        origin: 'http://shop.example',
      });
    },
  );
});
