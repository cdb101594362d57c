// What every bench does around its scenario: stops what it started once, last started first,
// however it ends (done, failed, Ctrl+C or SIGTERM), and exits with 0 when every target was met,
// 1 when one was missed, 130 when interrupted.
import { pathToFileURL } from 'node:url';

/** Registers a stop for the end, e.g. `atExit(() => server.close())`. */
export type AtExit = (stop: () => Promise<unknown>) => void;

/** Whether the module at `moduleUrl` is the script node was asked to run (not an import). */
export const isMain = (moduleUrl: string) =>
  moduleUrl === pathToFileURL(process.argv[1] ?? '').href;

export async function runBench(scenario: (atExit: AtExit) => Promise<boolean>): Promise<void> {
  const stops: (() => Promise<unknown>)[] = [];
  let interrupted = false;
  let stopping: Promise<void> | undefined;
  const stopAll = () =>
    (stopping ??= (async () => {
      for (const stop of stops.reverse()) await stop().catch(() => {});
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    })());
  const onSignal = (signal: NodeJS.Signals) => {
    interrupted = true;
    console.error(`\n${signal}: stopping what the bench started`);
    void stopAll().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const met = await scenario((stop) => stops.push(stop));
    await stopAll();
    process.exitCode = met ? 0 : 1;
  } catch (error) {
    await stopAll();
    if (interrupted) return;
    throw error;
  }
}
