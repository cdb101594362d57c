// How the command lines (the shop's host/main.ts, stub-server/serve.ts, the Django reference's
// serve.ts) stop on Ctrl+C or SIGTERM: once, after close() has let what was under way finish (and
// the stub's last write reach the disk), with exit code 0; 1 if closing failed.
export function stopOnSignals(server: { close(): Promise<void> }, saying: string): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: ${saying}`);
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
