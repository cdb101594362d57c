import { describe, expect, it } from 'vitest';
import { oneATask } from '../../../src/lib/one-a-task';

const ITEMS = [{ n: 0 }, { n: 1 }, { n: 2 }, { n: 3 }];

/** Counts tasks: microtasks run between two tasks, never between two jobs of one task. */
function taskCounter() {
  let tasks = 0;
  let inTask = false;
  return () => {
    if (!inTask) {
      tasks += 1;
      inTask = true;
      queueMicrotask(() => (inTask = false));
    }
    return tasks;
  };
}

/** A few turns of the event loop: a message posted would have come by then. */
async function turns() {
  for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setTimeout(resolve, 0));
}

describe('oneATask', () => {
  it('runs every job in order, each in a task of its own, none before the caller has finished', async () => {
    const task = taskCounter();
    const seen: [number, number][] = [];
    const done = new Promise<void>((resolve) => {
      oneATask(ITEMS, ({ n }) => {
        seen.push([n, task()]);
        if (n === 3) resolve();
      });
    });
    expect(seen).toEqual([]);
    await done;
    expect(seen).toEqual([
      [0, 1],
      [1, 2],
      [2, 3],
      [3, 4],
    ]);
  });

  it('runs nothing more once stopped, from a job or before the first', async () => {
    const ran: number[] = [];
    const stop = oneATask(ITEMS, ({ n }) => {
      ran.push(n);
      if (n === 1) stop();
    });
    const never = oneATask(ITEMS, ({ n }) => ran.push(10 + n));
    never();
    await turns();
    expect(ran).toEqual([0, 1]);
  });

  it('goes on after a job that throws', async () => {
    const ran: number[] = [];
    const errors: unknown[] = [];
    const onError = (error: unknown) => errors.push(error);
    process.on('uncaughtException', onError);
    try {
      const done = new Promise<void>((resolve) => {
        oneATask(ITEMS, ({ n }) => {
          ran.push(n);
          if (n === 3) resolve();
          if (n === 1) throw new Error('one job failed');
        });
      });
      await done;
    } finally {
      process.off('uncaughtException', onError);
    }
    expect(ran).toEqual([0, 1, 2, 3]);
  });
});
