import { afterEach, describe, expect, it, vi } from 'vitest';
import { inSlices } from '../../../src/lib/in-slices';

// The jobs' own time is faked: each "takes" 2 ms by moving performance.now on.
let now = 0;
afterEach(() => {
  vi.restoreAllMocks();
  now = 0;
});
function fakeTime() {
  vi.spyOn(performance, 'now').mockImplementation(() => now);
}

/** Runs the list and resolves with the jobs' items, each with the task it ran in. */
function runAll(count: number, onJob: (item: number) => void = () => {}) {
  const seen: { item: number; task: number }[] = [];
  let task = 0;
  let inTask = false;
  return new Promise<typeof seen>((resolve) => {
    inSlices(
      Array.from({ length: count }, (_, index) => index),
      (item) => {
        // Microtasks run between tasks, never between two jobs of one task.
        if (!inTask) {
          task += 1;
          inTask = true;
          queueMicrotask(() => (inTask = false));
        }
        seen.push({ item, task });
        now += 2;
        onJob(item);
        if (seen.length === count) resolve(seen);
      },
    );
  });
}

describe('inSlices', () => {
  it('runs every job in order, none of them before the caller has finished', async () => {
    fakeTime();
    let ran = 0;
    const all = runAll(7, () => (ran += 1));
    expect(ran).toBe(0);
    expect((await all).map(({ item }) => item)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('gives the browser its turn every 5 ms: jobs of 2 ms run three a task', async () => {
    fakeTime();
    const tasks = (await runAll(7)).map(({ task }) => task);
    expect(tasks).toEqual([1, 1, 1, 2, 2, 2, 3]);
  });

  it('runs nothing more once stopped', async () => {
    fakeTime();
    const ran: number[] = [];
    let stop = () => {};
    const stopped = new Promise<void>((resolve) => {
      stop = inSlices([0, 1, 2, 3, 4, 5, 6], (item) => {
        ran.push(item);
        now += 2;
        if (item === 3) {
          stop();
          resolve();
        }
      });
    });
    await stopped;
    // A message would come within a turn or two of the event loop: give it several.
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setTimeout(resolve, 0));
    expect(ran).toEqual([0, 1, 2, 3]);
  });
});
