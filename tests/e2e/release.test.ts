// A rolling deploy of a changed build under shoppers (deploy/release.sh, docs/deploy.md): the
// recipe (nginx and two instances) serves the stub's shop from BERRIES_HOME's `current` release,
// shoppers load pages through nginx all along (each page, then every file it names), and a
// Chromium tab opened on the old build moves to another page after the deploy. The new build is
// this checkout built again with one change (the footer's data-build), in a temporary copy.
// Nothing fails: no page, no script; and afterwards every kept page is the new build's.
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type RunningServer, startServer as startStub } from '../../stub-server/server.ts';
import { assertClean, hydrated, openPage, setupBrowser } from './browser.ts';
import { assetsNamed } from './build-assets.ts';
import { fetchVariant, HOOK_SECRET, VARIANTS } from './change-hooks.ts';
import {
  freePort,
  type Instance,
  type Recipe,
  REPO_ROOT,
  startRecipe,
  startShopProcess,
} from './nginx-recipe.ts';

const run = promisify(execFile);
const browser = setupBrowser();

const PAGES = [
  '/',
  '/catalog',
  '/section/15',
  '/selection/1',
  '/product/7',
  '/product/16',
  `/search?q=${encodeURIComponent('малина')}`,
];
const NEW_BUILD_MARK = 'data-build="next"';
/** A bound for a wait that is failing anyway (two builds and two restarts on a busy machine). */
const LONG = 600_000;

let dir = '';
let home = '';
let nextBuild = '';
let stub: RunningServer;
let recipe: Recipe;
let control: Server;
let controlUrl = '';
let renewPort = 0;
const ports: number[] = [];
const running = new Map<number, Instance>();

/** This checkout's files, built again in a temporary copy with the footer marked. */
async function buildChanged(): Promise<string> {
  const source = path.join(dir, 'source');
  const { stdout } = await run(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    { cwd: REPO_ROOT, maxBuffer: 64 * 1024 * 1024 },
  );
  const files = stdout.split('\0').filter((file) => file && existsSync(path.join(REPO_ROOT, file)));
  const list = path.join(dir, 'files');
  await writeFile(list, files.join('\0'));
  await mkdir(source);
  await run('sh', [
    '-c',
    `tar -C "$1" --null -T "$2" -cf - | tar -C "$3" -xf -`,
    'sh',
    REPO_ROOT,
    list,
    source,
  ]);
  await symlink(path.join(REPO_ROOT, 'node_modules'), path.join(source, 'node_modules'));
  const footer = path.join(source, 'src', 'app', 'layout', 'Footer.tsx');
  const text = await readFile(footer, 'utf8');
  const marked = text.replace(
    '<footer className={classes.footer}>',
    `<footer className={classes.footer} ${NEW_BUILD_MARK}>`,
  );
  expect(marked).not.toBe(text);
  await writeFile(footer, marked);
  await run('npm', ['run', 'build'], { cwd: source, maxBuffer: 64 * 1024 * 1024 });
  return path.join(source, 'dist');
}

/**
 * Stands in for systemd: POST /restart/PORT stops the instance on PORT (SIGTERM; it drains) and
 * starts `node BERRIES_HOME/current/host/main.js` there, as berries-shop@PORT would, answering
 * once it answers /healthz.
 */
async function startControl(): Promise<void> {
  control = createServer((req, res) => {
    const port = Number(/^\/restart\/(\d+)$/.exec(req.url ?? '')?.[1]);
    void (async () => {
      await running.get(port)?.close();
      running.set(
        port,
        await startShopProcess({
          main: path.join(home, 'current', 'host', 'main.js'),
          cwd: home,
          port,
          env: {
            API_TARGET: stub.url.replace(/\/$/, ''),
            CHANGE_HOOK_SECRET: HOOK_SECRET,
            PAGE_RENEW_URL: `http://127.0.0.1:${renewPort}`,
            KEPT_PAGES_FILE: path.join(home, `kept-pages-${port}.json`),
            PAGE_CACHE_SECONDS: '3600',
          },
        }),
      );
      res.end('restarted');
    })().catch((error: unknown) => {
      res.statusCode = 500;
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
  controlUrl = `http://127.0.0.1:${(control.address() as { port: number }).port}`;
}

/** deploy/release.sh install DIST, as an operator runs it. */
function release(dist: string) {
  return run(path.join(REPO_ROOT, 'deploy', 'release.sh'), ['install', dist], {
    env: {
      ...process.env,
      BERRIES_HOME: home,
      BERRIES_INSTANCES: ports.join(' '),
      BERRIES_RESTART: `curl -fsS -X POST ${controlUrl}/restart/{}`,
    },
  });
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'berries-release-'));
  // nginx's workers (nobody) read the assets under it.
  await chmod(dir, 0o755);
  home = path.join(dir, 'srv');
  await mkdir(home);
  stub = await startStub({ port: 0, dataFile: path.join(dir, 'db.json') });
  ports.push(await freePort(), await freePort());
  renewPort = await freePort();
  await startControl();
  // The first release: the checkout's own build, both instances started on it; then nginx.
  await release(path.join(REPO_ROOT, 'dist'));
  const [one = 0, two = 0] = ports;
  recipe = await startRecipe([{ port: one }, { port: two }], { assetsRoot: home, renewPort });
  nextBuild = await buildChanged();
}, LONG);

afterAll(async () => {
  await recipe?.close();
  await Promise.all([...running.values()].map((shop) => shop.close()));
  await new Promise((resolve) => control?.close(resolve));
  await stub?.close();
  await rm(dir, { recursive: true, force: true });
});

interface Tally {
  pages: number;
  failedPages: string[];
  files: number;
  missingFiles: string[];
}

/** A shopper loading pages through nginx, each with every file it names, until `stop()`. */
function shopper(tally: Tally, offset: number) {
  let stopped = false;
  const done = (async () => {
    for (let turn = offset; !stopped; turn++) {
      const page = PAGES[turn % PAGES.length] ?? '/';
      const variant = VARIANTS[turn % VARIANTS.length] ?? VARIANTS[0]!;
      const seen = await fetchVariant(recipe.url, page, variant).catch((error: unknown) => ({
        status: 0,
        html: String(error),
      }));
      tally.pages += 1;
      if (seen.status !== 200) {
        tally.failedPages.push(`${page}: ${seen.status}`);
        continue;
      }
      for (const file of assetsNamed(seen.html)) {
        const answer = await fetch(`${recipe.url}${file}`, { method: 'HEAD' }).catch(() => null);
        tally.files += 1;
        if (answer?.status !== 200) tally.missingFiles.push(`${page} → ${file}: ${answer?.status}`);
      }
    }
  })();
  return {
    stop: () => {
      stopped = true;
      return done;
    },
  };
}

/** The new build's own /assets files. */
async function newBuildFiles(): Promise<Set<string>> {
  return new Set(
    (await readdir(path.join(nextBuild, 'client', 'assets'))).map((name) => `/assets/${name}`),
  );
}

test(
  'a rolling deploy of a changed build loses no page and no script; afterwards every page is the new build',
  { timeout: LONG },
  async () => {
    // nginx keeps the old build's pages, every variant; a tab is open on the old build.
    for (const page of PAGES) {
      for (const variant of VARIANTS) {
        await expect
          .poll(async () => (await fetchVariant(recipe.url, page, variant)).cache)
          .toBe('HIT');
      }
    }
    const tab = await openPage(browser(), '/', { baseURL: recipe.url });
    expect(await tab.content()).not.toContain(NEW_BUILD_MARK);

    const tally: Tally = { pages: 0, failedPages: [], files: 0, missingFiles: [] };
    const shoppers = [0, 1, 2, 3].map((offset) => shopper(tally, offset * 5));
    const { stdout } = await release(nextBuild);
    expect(stdout).toContain('current -> releases/');
    // The shoppers go on while the new instances renew the kept pages.
    const allNew = async () => {
      const files = await newBuildFiles();
      const old: string[] = [];
      for (const page of PAGES) {
        for (const variant of VARIANTS) {
          const seen = await fetchVariant(recipe.url, page, variant);
          const named = assetsNamed(seen.html);
          const fine =
            seen.status === 200 &&
            seen.cache === 'HIT' &&
            seen.html.includes(NEW_BUILD_MARK) &&
            named.length > 0 &&
            named.every((file) => files.has(file));
          if (!fine) old.push(`${page} ${variant.theme} ${variant.accepted} ${variant.encoding}`);
        }
      }
      return old;
    };
    await expect.poll(allNew, { timeout: LONG, interval: 1000 }).toEqual([]);
    await Promise.all(shoppers.map((one) => one.stop()));

    expect(tally.failedPages).toEqual([]);
    expect(tally.missingFiles).toEqual([]);
    expect(tally.pages).toBeGreaterThan(PAGES.length);

    // The tab of the old build moves to a product page in the app: the old build's page code
    // comes from the assets kept for it.
    await hydrated(tab);
    await tab
      .getByRole('link', { name: /Малина/ })
      .first()
      .click();
    await tab.waitForURL(/\/product\/\d+$/);
    await tab.getByRole('heading', { level: 1 }).waitFor();
    expect(await tab.content()).not.toContain('Не удалось показать страницу');
    expect(await tab.content()).not.toContain(NEW_BUILD_MARK);
    assertClean(tab);

    // Two releases, the first's assets kept beside the second's.
    expect((await readdir(path.join(home, 'releases'))).length).toBe(2);
  },
);
