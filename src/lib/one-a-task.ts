/**
 * Runs `job` on each item in order, each in a task of its own: a list of small jobs that
 * together would hold a slow phone's main thread for longer than a tap may wait. One a task, not
 * a time budget: what a job starts may run in the task's microtasks, after the job has returned
 * (an image's candidate is picked there in Firefox and WebKit). The next task comes through a
 * message, as React's scheduler's does: not a timer, which a test's stopped clock (or a
 * background tab's throttling) would hold back. Returns a function that stops what has not run.
 */
export function oneATask<T extends object>(
  items: readonly T[],
  job: (item: T) => void,
): () => void {
  const channel = new MessageChannel();
  const waiting = [...items];
  // A message already on its way still comes after the port is closed (in Node at least).
  const stop = () => {
    waiting.length = 0;
    channel.port1.close();
  };
  channel.port1.onmessage = () => {
    const [item] = waiting.splice(0, 1);
    // The next one is asked for first: a job that throws does not stop the rest.
    if (waiting.length > 0) channel.port2.postMessage(null);
    else stop();
    if (item !== undefined) job(item);
  };
  if (waiting.length > 0) channel.port2.postMessage(null);
  else stop();
  return stop;
}
