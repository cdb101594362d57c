/**
 * React's scheduler yields to the browser after this long: a tap that lands meanwhile waits at
 * most that (four times as long on a slow phone).
 */
const SLICE_MS = 5;

/**
 * Runs `job` on each item in order, in tasks of a few milliseconds: a list of small jobs that
 * together would hold a slow phone's main thread for longer than a tap may wait. Each next task
 * comes through a message, as React's scheduler's does: not a timer, which a test's stopped
 * clock (or a background tab's throttling) would hold back. Returns a function that stops what
 * has not run yet.
 */
export function inSlices<T>(items: readonly T[], job: (item: T) => void): () => void {
  const channel = new MessageChannel();
  let next = 0;
  let stopped = false;
  const stop = () => {
    stopped = true;
    channel.port1.close();
  };
  channel.port1.onmessage = () => {
    const started = performance.now();
    for (const item of items.slice(next)) {
      if (stopped || performance.now() - started >= SLICE_MS) break;
      next += 1;
      job(item);
    }
    if (stopped || next === items.length) stop();
    else channel.port2.postMessage(null);
  };
  channel.port2.postMessage(null);
  return stop;
}
