// A shop in front of a working backend (the stub) whose answers a test twists mid-run, with the
// other host a redirect leads to: what the e2e files about odd answers and their messages share.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type RunningShop, startShopServer, type ShopServerOptions } from '../../host/app.ts';
import {
  elsewhereBackend,
  stubBackend,
  type TwistedBackend,
  twistedBackend,
} from './fault-backends.ts';

export interface TwistedShop {
  shop: RunningShop;
  backend: TwistedBackend;
  /** The other host: what a redirect sent it, if it was ever asked. */
  elsewhere: Awaited<ReturnType<typeof elsewhereBackend>>;
  /** Stops the shop and its backends, and removes its image cache. */
  close(): Promise<void>;
}

export async function twistedShop(
  options: Partial<ShopServerOptions> & { hugeBytes?: number } = {},
): Promise<TwistedShop> {
  const { hugeBytes, ...shopOptions } = options;
  const stub = await stubBackend();
  const elsewhere = await elsewhereBackend();
  const backend = await twistedBackend(stub.url, elsewhere.url, hugeBytes);
  const imageDir = await mkdtemp(path.join(os.tmpdir(), 'berries-twisted-images-'));
  const shop = await startShopServer({
    port: 0,
    apiTarget: backend.url,
    images: { cacheDir: imageDir },
    ...shopOptions,
  });
  return {
    shop,
    backend,
    elsewhere,
    close: async () => {
      await shop.close();
      await backend.close();
      await elsewhere.close();
      await stub.close();
      await rm(imageDir, { recursive: true, force: true });
    },
  };
}
