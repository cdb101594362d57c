// Render speed of `/` on the server (issue 42): the build's server entry renders the home page
// again and again, in this process, against the stub (its seed catalogue), its answers kept
// fresh so that what is timed is the loading of the page from them and React's render. The
// build is ./dist, or the one named: `tsx bench/render-home.ts /path/to/dist`, so that two builds
// can be timed in alternating rounds.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import type * as EntryServer from '../src/server-entry/entry-server.tsx';
import { startServer } from '../stub-server/server.ts';

const RENDERS = 300;
const WARM_UP = 30;

type Entry = typeof EntryServer;

const dist = path.resolve(process.argv[2] ?? 'dist');
const entry = (await import(
  pathToFileURL(path.join(dist, 'server', 'entry-server.js')).href
)) as Entry;
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'berries-bench-render-'));
const stub = await startServer({ port: 0, dataFile: path.join(dataDir, 'db.json'), reset: true });
const shop = entry.createShopServer({
  baseURL: () => new URL('/api', stub.url).href,
  fetch: globalThis.fetch,
  publicAnswers: { freshMs: 3_600_000, staleMs: 3_600_000, maxEntries: 100 },
  timeZone: 'Europe/Moscow',
});

/** One render of `/` for everyone, its HTML read to the end; its length in characters. */
async function renderHome(): Promise<number> {
  const visitor = { cookies: {}, forwardedFor: '127.0.0.1', proto: 'http', host: 'shop.test' };
  const result = await shop.renderPage({
    url: '/',
    origin: 'http://shop.test',
    cookieAccepted: false,
    calls: shop.startCalls(visitor, 10_000),
    shared: true,
  });
  if (result.kind !== 'page' || result.status !== 200) throw new Error('/ did not render');
  let length = 0;
  await new Promise<void>((resolve, reject) => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        length += chunk.length;
        done();
      },
    });
    sink.on('finish', resolve).on('error', reject);
    result.pipe(sink);
  });
  return length;
}

try {
  for (let i = 0; i < WARM_UP; i += 1) await renderHome();
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < RENDERS; i += 1) {
    const started = performance.now();
    bytes = await renderHome();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (share: number) =>
    (times[Math.floor(share * (times.length - 1))] ?? Number.NaN).toFixed(2);
  console.log(
    `render / (${dist}): ${RENDERS} renders, median ${at(0.5)} ms, p90 ${at(0.9)} ms, ${bytes} bytes`,
  );
} finally {
  await stub.close();
  await rm(dataDir, { recursive: true, force: true });
}
