// The instance's JSON log (host/process/request-log.ts): a line per answered request when the
// access log is on, and always the operator's warning for a backend call that failed, under the id
// of the request that made it.
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { requestIds, requestOf, shopLog } from '../../host/process/request-log.ts';
import { listen, type Listening } from './http-helpers.ts';

/** A shop whose one page fails a backend call, logged into `lines`. */
async function shopLogging(access: boolean) {
  const lines: Record<string, unknown>[] = [];
  const destination = { write: (line: string) => void lines.push(JSON.parse(line)) };
  const log = shopLog(() => ({ handler: 'page', route: '/basket' }), { access, destination });
  const app = express();
  app.use(requestIds);
  if (log.access) app.use(log.access);
  app.get('/basket', (req, res) => {
    log.calls.callFailed({
      id: requestOf(req).id,
      case: 'unreadable',
      outcome: 'bad_shape',
      call: 'GET /api/catalog/basket',
      why: "the backend's answer to GET /catalog/basket is text/html, not JSON",
    });
    res.status(200).send('ok');
  });
  running = await listen(app);
  return { url: running.url, lines };
}

let running: Listening | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

describe("the operator's log", () => {
  it.each([
    [true, 2],
    [false, 1],
  ])(
    'with the access log %s: a failed call is a warning under the request id (%i lines)',
    async (access, count) => {
      const shop = await shopLogging(access);
      await fetch(`${shop.url}/basket`, { headers: { 'X-Request-Id': 'req-43' } });
      await expect.poll(() => shop.lines.length).toBe(count);
      expect(shop.lines[0]).toMatchObject({
        level: 40,
        msg: 'backend call failed',
        id: 'req-43',
        case: 'unreadable',
        outcome: 'bad_shape',
        call: 'GET /api/catalog/basket',
        why: "the backend's answer to GET /catalog/basket is text/html, not JSON",
      });
      if (access) {
        expect(shop.lines[1]).toMatchObject({ level: 30, id: 'req-43', route: '/basket' });
      }
    },
  );
});
