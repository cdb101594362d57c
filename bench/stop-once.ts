// What every bench that starts a server and browsers needs at its end: stop them once, however
// often asked (Ctrl+C and the run's own `finally` both ask), and on Ctrl+C (or SIGTERM) exit
// once they have stopped.

/**
 * Registers the signal handlers and returns the one stop, which also takes them away again;
 * `onSignal` learns which signal came.
 */
export function stopOnce(
  stopAll: () => Promise<void>,
  onSignal: (signal: NodeJS.Signals) => void,
): () => Promise<void> {
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= stopAll().finally(() => {
      process.off('SIGINT', interrupted);
      process.off('SIGTERM', interrupted);
    }));
  const interrupted = (signal: NodeJS.Signals) => {
    onSignal(signal);
    void stop().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  return stop;
}
