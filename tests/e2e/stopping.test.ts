// How the production server stops (docs/deploy.md: a rolling restart): what nginx, which keeps
// idle connections to it, sees after SIGTERM. It must be able to finish sending on a connection
// it already holds (a POST it could not repeat elsewhere), learn from /healthz and the answer's
// Connection header that the instance is going, and find new connections refused.
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { type RunningShop, startShopServer } from '../../host/app.ts';

let shop: RunningShop | undefined;
let dataDir = '';
afterEach(async () => {
  await shop?.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** GET `path` on `agent`'s connection: the status and the Connection header, or the error. */
function get(url: string, agent: Agent): Promise<{ status: number; connection?: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { agent }, (answer) => {
      answer.resume();
      answer.on('end', () =>
        resolve({ status: answer.statusCode ?? 0, connection: answer.headers.connection }),
      );
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

test('a stopping instance answers on the connection nginx holds, says it is going, and refuses new ones', async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'berries-stopping-'));
  shop = await startShopServer({
    port: 0,
    stub: { dataFile: path.join(dataDir, 'db.json') },
    // Longer than the test: the connection must stay open because of what it is, not the clock.
    stopGraceMs: 600_000,
  });
  const healthz = `${shop.url}healthz`;
  const kept = new Agent({ keepAlive: true, maxSockets: 1 });
  expect(await get(healthz, kept)).toEqual({ status: 200, connection: 'keep-alive' });

  // SIGTERM: main.ts calls close(). The kept connection is idle now.
  const stopped = shop.close();
  // A request nginx sends on it just then still gets its answer: 503 from /healthz, and the
  // connection closed after it.
  expect(await get(healthz, kept)).toEqual({ status: 503, connection: 'close' });
  // A new connection is refused, which nginx takes to the other instance.
  const fresh = new Agent({ keepAlive: false });
  await expect(get(healthz, fresh)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  // With its last connection gone, the instance has stopped, long before the grace ends.
  await stopped;
  kept.destroy();
  shop = undefined;
});
