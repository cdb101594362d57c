// The shop's server as the browser benches run it: in their own process, on a free loopback port,
// on the production build in `distDir`, with the stub's data and the pictures' cache in `dataDir`,
// a throwaway folder (the stub starts from its seed).
import path from 'node:path';
import { type RunningShop, startShopServer } from '../host/app.ts';

export function startBenchShop(distDir: string, dataDir: string): Promise<RunningShop> {
  return startShopServer({
    port: 0,
    host: '127.0.0.1',
    distDir,
    stub: { dataFile: path.join(dataDir, 'db.json'), reset: true },
    images: { cacheDir: path.join(dataDir, 'images') },
  });
}
