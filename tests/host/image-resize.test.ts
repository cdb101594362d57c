// Pictures are resized in a process of their own (host/images/image-resize.ts,
// host/images/image-resizer.mjs): one that dies costs the pictures it had, not the shop, and the
// next picture gets a new one.
import type * as childProcess from 'node:child_process';
import sharp from 'sharp';
import { beforeAll, expect, it, vi } from 'vitest';
import { imageResizer } from '../../host/images/image-resize.ts';

const forked: childProcess.ChildProcess[] = [];
let killNext = false;

vi.mock('node:child_process', async (original) => {
  const real = await original<typeof childProcess>();
  return {
    ...real,
    fork: (...args: Parameters<typeof real.fork>) => {
      const child = real.fork(...args);
      forked.push(child);
      // A decoder crash, before the resizer could answer anything.
      if (killNext) child.kill('SIGKILL');
      killNext = false;
      return child;
    },
  };
});

let photo: Buffer;
beforeAll(async () => {
  photo = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#c2185b' } })
    .jpeg()
    .toBuffer();
});

const limits = { maxPixels: 50_000_000, timeoutMs: 10_000, concurrency: 2, maxWaiting: 4 };

it('resizes in a process of its own, and a resizer that dies fails only its own pictures', async () => {
  const resize = imageResizer(limits);
  killNext = true;
  await expect(resize(photo, 320, 'jpeg')).rejects.toMatchObject({ reason: 'broken' });
  expect(forked).toHaveLength(1);

  const [small, webp] = await Promise.all([resize(photo, 320, 'jpeg'), resize(photo, 480, 'webp')]);
  expect(await sharp(small).metadata()).toMatchObject({ format: 'jpeg', width: 320, height: 240 });
  expect(await sharp(webp).metadata()).toMatchObject({ format: 'webp', width: 480 });
  // One new resizer for both, not one per picture.
  expect(forked).toHaveLength(2);
  expect(forked[1]?.pid).not.toBe(process.pid);
});

it('refuses a picture of more pixels than allowed from the resizer, and goes on', async () => {
  const resize = imageResizer({ ...limits, maxPixels: 100_000 });
  await expect(resize(photo, 320, 'avif')).rejects.toMatchObject({ reason: 'too-many-pixels' });
  const fine = imageResizer(limits);
  expect(await sharp(await fine(photo, 160, 'avif')).metadata()).toMatchObject({ width: 160 });
});
