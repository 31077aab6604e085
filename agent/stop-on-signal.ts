import type { Logger } from "./log.ts";

/**
 * SIGTERM (systemd's stop) or SIGINT: `stop` once (the node agent saves its state, the probe
 * stops its core and deletes its config), then exit, whether or not it finished cleanly.
 */
export function stopOnSignal(log: Logger, stop: () => Promise<void>): void {
  let isStopping = false;
  for (const signal of ["SIGTERM", "SIGINT"] as const)
    process.on(signal, () => {
      if (isStopping) return;
      isStopping = true;
      log("info", "stopping");
      stop()
        .catch(() => undefined)
        .finally(() => process.exit(0));
    });
}
