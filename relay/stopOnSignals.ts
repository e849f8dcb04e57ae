/** Closes what runs on SIGINT or SIGTERM (Ctrl+C, `docker stop`), then ends the process. */
export function stopOnSignals(close: () => Promise<void>): void {
  const stop = (signal: string) => {
    console.log(`${signal}: stopping the relay`);
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.once("SIGINT", () => stop("SIGINT"));
  process.once("SIGTERM", () => stop("SIGTERM"));
}
